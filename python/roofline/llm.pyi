from typing import Dict, List, Optional

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

def model(name_or_path: str) -> Model: ...
def models() -> List[Model]: ...
def analyse(model: Model, machine: Machine, batch: float = 1, context: float = 2048,
            prompt: Optional[float] = None, phase: str = "decode", tp: int = 1,
            flash: bool = False, weights: str = "", activations: str = "",
            kv_cache: str = "", compute: str = "",
            interconnect_byte_per_s: Optional[float] = None,
            measured_tokens_per_s: Optional[float] = None) -> Report: ...
def chart(report: Report, title: Optional[str] = None) -> Chart: ...
