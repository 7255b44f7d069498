from typing import Dict, List, Optional, Tuple, Union

from . import Chart, Machine, Point

class Model:
    name: str
    model_type: str
    origin: str
    source: str
    hidden: float
    heads: float
    kv_heads: float
    head_dim: float
    intermediate: float
    layers: float
    vocab: float
    experts: float
    experts_per_token: float
    sliding_window: float
    max_positions: float
    published_params: float
    def parameters(self, tp: int = 1) -> Dict[str, float]: ...
    def to_dict(self) -> dict: ...

class Aggregate:
    name: str
    work_flop: float
    traffic_byte: float
    time_s: float
    intensity_flop_per_byte: float

class Report:
    model: Model
    machine: Machine
    compute_roof: str
    memory_level: str
    peak_flop_per_s: float
    bandwidth_byte_per_s: float
    ridge_flop_per_byte: float
    prefill: Aggregate
    decode_linear: Aggregate
    decode_attention: Aggregate
    ttft_s: float
    time_per_token_s: float
    tokens_per_s: float
    memory_byte: float
    fits: Optional[bool]
    warnings: List[str]
    def points(self) -> List[Point]: ...
    def to_dict(self) -> dict: ...

class Request:
    batch: float
    prompt: float
    output: float
    ttft_s: float
    decode_s: float
    e2e_s: float
    mean_tpot_s: float
    output_tokens_per_s: float
    requests_per_s: float
    warnings: List[str]
    def to_dict(self) -> dict: ...

class Serving:
    requests: float
    steps: float
    makespan_s: float
    output_tokens_per_s: float
    input_tokens_per_s: float
    requests_per_s: float
    ttft_median_s: float
    ttft_p99_s: float
    tpot_median_s: float
    e2e_median_s: float
    mean_decode_batch: float
    peak_kv_cache_bytes: float
    peak_tokens: float
    warnings: List[str]
    def to_dict(self) -> dict: ...

class Speculative:
    k: float
    alpha: float
    expected_tokens: float
    drafter: str
    time_per_token_s: float
    plain_step_s: float
    speedup: float
    paper_speedup: float
    tokens_per_s: float
    verify_intensity_flop_per_byte: float
    verify_compute_bound: bool
    def to_dict(self) -> dict: ...

class Training:
    tokens: float
    parameters: float
    six_nd_flop: float
    step_s: float
    mfu: float
    hfu: float
    measured_mfu: Optional[float]
    memory_byte: float
    fits: Optional[bool]
    notes: List[str]
    def to_dict(self) -> dict: ...

class Cost:
    devices: float
    tokens_per_s: float
    usd_per_million_tokens: Optional[float]
    joules_per_token: Optional[float]
    power_w: Optional[float]
    power_source: str
    notes: List[str]
    def to_dict(self) -> dict: ...

# The scenario keywords (keyword-only) are the flags of `roofline llm`: --tp, --ep, --cp, --pp,
# --micro-batches, --flash, --mla, the dtypes, --interconnect-bandwidth, --link-latency,
# --domain-size, --attainment, --calibrate.
def request(model: Model, machine: Machine, output_tokens: float, batch: float = 1,
    prompt: float = 2048, chunk: float = 0,
    *, tp: int = 1, ep: bool = False, cp: int = 1, pp: int = 1, micro_batches: float = 0,
    flash: bool = False, mla: str = "auto", weights: str = "", activations: str = "",
    kv_cache: str = "", compute: str = "", interconnect_byte_per_s: Optional[float] = None,
    link_latency_s: Optional[float] = None, domain_size: Optional[float] = None,
    attainment: Optional[str] = None, calibrate: Union[Machine, str, None] = None) -> Request: ...
def serve(model: Model, machine: Machine, concurrency: float,
    requests: List[Tuple[float, float]], max_batched_tokens: float = 0,
    total_requests: float = 0,
    *, tp: int = 1, ep: bool = False, cp: int = 1, pp: int = 1, micro_batches: float = 0,
    flash: bool = False, mla: str = "auto", weights: str = "", activations: str = "",
    kv_cache: str = "", compute: str = "", interconnect_byte_per_s: Optional[float] = None,
    link_latency_s: Optional[float] = None, domain_size: Optional[float] = None,
    attainment: Optional[str] = None, calibrate: Union[Machine, str, None] = None) -> Serving: ...
def speculative(model: Model, machine: Machine, draft: Union[Model, str], k: float = 4,
    alpha: float = 0.8, batch: float = 1, context: float = 2048,
    *, tp: int = 1, ep: bool = False, cp: int = 1, pp: int = 1, micro_batches: float = 0,
    flash: bool = False, mla: str = "auto", weights: str = "", activations: str = "",
    kv_cache: str = "", compute: str = "", interconnect_byte_per_s: Optional[float] = None,
    link_latency_s: Optional[float] = None, domain_size: Optional[float] = None,
    attainment: Optional[str] = None, calibrate: Union[Machine, str, None] = None) -> Speculative: ...
def train(model: Model, machine: Machine, sequence: float = 4096, micro_batch: float = 1,
    global_batch: float = 0, dp: float = 1, recompute: str = "none", zero: int = 0,
    sequence_parallel: bool = False, measured_step_s: Optional[float] = None,
    *, tp: int = 1, ep: bool = False, cp: int = 1, pp: int = 1, micro_batches: float = 0,
    flash: bool = False, mla: str = "auto", weights: str = "", activations: str = "",
    kv_cache: str = "", compute: str = "", interconnect_byte_per_s: Optional[float] = None,
    link_latency_s: Optional[float] = None, domain_size: Optional[float] = None,
    attainment: Optional[str] = None, calibrate: Union[Machine, str, None] = None) -> Training: ...
def compare(model: Model, machines: List[Machine], batch: float = 1, context: float = 2048,
    prompt: Optional[float] = None, output_tokens: float = 0, chunk: float = 0, dp: float = 1,
    price_per_hour: Union[float, Dict[str, float], None] = None, power_w: Optional[float] = None,
    *, tp: int = 1, ep: bool = False, cp: int = 1, pp: int = 1, micro_batches: float = 0,
    flash: bool = False, mla: str = "auto", weights: str = "", activations: str = "",
    kv_cache: str = "", compute: str = "", interconnect_byte_per_s: Optional[float] = None,
    link_latency_s: Optional[float] = None, domain_size: Optional[float] = None,
    attainment: Optional[str] = None, calibrate: Union[Machine, str, None] = None) -> List[dict]: ...
def cost(tokens_per_s: float, machine: Machine, devices: float = 1,
         price_per_hour: Optional[float] = None, power_w: Optional[float] = None) -> Cost: ...

def model(name_or_path: str) -> Model: ...
def models() -> List[Model]: ...
def analyse(model: Model, machine: Machine, batch: float = 1, context: float = 2048,
    prompt: Optional[float] = None, phase: str = "decode",
    *, measured_tokens_per_s: Optional[float] = None, tp: int = 1, ep: bool = False, cp: int = 1, pp: int = 1, micro_batches: float = 0,
    flash: bool = False, mla: str = "auto", weights: str = "", activations: str = "",
    kv_cache: str = "", compute: str = "", interconnect_byte_per_s: Optional[float] = None,
    link_latency_s: Optional[float] = None, domain_size: Optional[float] = None,
    attainment: Optional[str] = None, calibrate: Union[Machine, str, None] = None) -> Report: ...
def chart(report: Report, title: Optional[str] = None) -> Chart: ...
