# Type stubs of the roofline package (docs/python.md). Units are SI, the unit in the name.
import os
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import llm as llm

__version__: str

class Error(Exception): ...
class InputError(Error, ValueError): ...
class Unavailable(Error, RuntimeError): ...
class OutputError(Error, OSError): ...

class Statistics:
    repetitions: int
    median: float
    best: float
    min: float
    max: float
    cv: float
    noisy: bool
    sustained: float
    spread: float
    confirmed: bool

class ComputeRoof:
    name: str
    precision: str
    unit: str
    peak_flop_per_s: float
    provenance: str  # "measured", "theoretical", "datasheet" or "reported"
    source: str
    theoretical_flop_per_s: Optional[float]
    formula: str
    statistics: Optional[Statistics]
    integer: bool
    sparse: bool

class MemoryRoof:
    level: str
    kind: str
    bandwidth_byte_per_s: float
    provenance: str
    source: str
    theoretical_byte_per_s: Optional[float]
    formula: str
    statistics: Optional[Statistics]
    size_bytes: Optional[float]
    convention: str
    mixes_byte_per_s: Dict[str, float]

class Ridge:
    label: str
    compute_roof: str
    peak_flop_per_s: float
    memory_level: str
    bandwidth_byte_per_s: float
    ridge_flop_per_byte: float

class Point:
    name: str
    work_flop: float
    time_s: float
    traffic_byte: float
    traffic_by_level: List[Tuple[str, float]]
    precision: str
    source: str
    note: str
    performance_flop_per_s: float
    intensity_flop_per_byte: float
    def __init__(self, name: str, work_flop: float,
                 traffic_byte: Union[float, Mapping[str, float]], time_s: float,
                 precision: str = "", source: str = "python", note: str = "") -> None: ...
    def intensity_at(self, level: str) -> float: ...
    def to_dict(self) -> dict: ...

class Machine:
    name: str
    origin: str
    units: Tuple[str, str]
    compute_roofs: List[ComputeRoof]
    memory_roofs: List[MemoryRoof]
    default_compute: str
    default_memory: str
    info: dict
    def __init__(self, name_or_path: Union[str, "os.PathLike[str]"], hw_dir: str = "") -> None: ...
    @staticmethod
    def load(path: Union[str, "os.PathLike[str]"]) -> Machine: ...
    @staticmethod
    def from_catalogue(name: str, hw_dir: str = "") -> Machine: ...
    @staticmethod
    def from_roofs(peak_flop_per_s: float, bandwidth_byte_per_s: float, precision: str = "",
                   level: str = "DRAM", name: str = "given roofs") -> Machine: ...
    @staticmethod
    def measure(quick: bool = False, threads: int = 0, precisions: Sequence[str] = (),
                levels: Sequence[str] = (), curve: bool = True,
                progress: Optional[Callable[[float, str], None]] = None) -> Machine: ...
    def compute_roof(self, name_or_precision: str = "") -> ComputeRoof: ...
    def memory_roof(self, level: str = "") -> MemoryRoof: ...
    def ridge_flop_per_byte(self, precision: str = "", level: str = "") -> float: ...
    def attainable_flop_per_s(self, intensity_flop_per_byte: float, precision: str = "",
                              level: str = "") -> float: ...
    def ridges(self, level: str = "") -> List[Ridge]: ...
    def to_json(self) -> str: ...
    def save(self, path: Union[str, "os.PathLike[str]"]) -> None: ...
    def chart(self, points: Sequence[Point] = (), **kwargs) -> Chart: ...
    def to_svg(self, points: Sequence[Point] = (), **kwargs) -> str: ...
    def to_html(self, points: Sequence[Point] = (), **kwargs) -> str: ...
    def _repr_svg_(self) -> str: ...

class CatalogueEntry:
    name: str
    display_name: str
    vendor: str
    kind: str
    release_year: Optional[int]
    memory_bytes: Optional[float]
    aliases: List[str]
    path: str
    machine: Machine

def catalogue(hw_dir: str = "") -> List[CatalogueEntry]: ...

class MachineAtIntensity:
    machine: str
    compute_roof: str
    memory_level: str
    peak_flop_per_s: float
    bandwidth_byte_per_s: float
    ridge_flop_per_byte: float
    attainable_flop_per_s: float
    memory_side: bool

class Comparison:
    intensity_flop_per_byte: float
    machines: List[MachineAtIntensity]
    ratios: List[float]
    regimes: List[str]
    def to_dict(self) -> dict: ...

def compare(machines: Sequence[Machine], intensity_flop_per_byte: float, precision: str = "",
            level: str = "") -> Comparison: ...

class RoofChange:
    name: str
    roof_a: str
    roof_b: str
    kind: str
    a: float
    b: float
    ratio: float
    spread_a: Optional[float]
    spread_b: Optional[float]
    noise: Optional[float]
    exceeds_spread: Optional[bool]

class Diff:
    changes: List[RoofChange]
    only_a: List[str]
    only_b: List[str]
    ridge_ratio: float
    def to_dict(self) -> dict: ...

def diff(a: Machine, b: Machine) -> Diff: ...

def energy(machine: Machine, eps_flop: Optional[float] = None, eps_mem: Optional[float] = None,
           pi0: Optional[float] = None, intensities: Sequence[float] = (), precision: str = "",
           level: str = "") -> dict:
    """The energy roofline of `roofline energy --json`, less power_interface and points."""
    ...

class LevelJudgement:
    level: str
    intensity_flop_per_byte: float
    attainable_flop_per_s: float
    attainment: float
    memory_side: bool
    ridge_flop_per_byte: float

class EmptyRoof:
    name: str
    peak_flop_per_s: float
    gain: float

class Diagnosis:
    verdict: str  # far-below, memory-bound, compute-bound, faster-unit-unused, above-roof
    title: str
    prescription: str
    causes: List[str]
    notes: List[str]
    compute_roof: str
    binding_level: str
    binding_is_memory: bool
    performance_flop_per_s: float
    attainable_flop_per_s: float
    attainment: float
    headroom_factor: float
    headroom_decades: float
    touching: bool
    levels: List[LevelJudgement]
    empty_roofs_above: List[EmptyRoof]
    point: Point
    def to_dict(self) -> dict: ...

def diagnose(point: Point, machine: Machine, touching: float = 0.8, above: float = 1.05,
             higher_roof_factor: float = 1.5) -> Diagnosis: ...

def check(points: Union[str, Sequence[Point]], machine: Optional[Machine] = None,
          baseline: Union[None, str, Sequence[Point]] = None,
          min_attainment: Optional[float] = None, noise: Optional[float] = None,
          config: Optional[str] = None, precision: str = "") -> dict:
    """The CI gate of `roofline check`; returns what `roofline check --json` prints."""
    ...

class KernelCount:
    kernel: str
    dtype: str
    work_flop: float
    traffic_byte: float
    traffic_write_allocate_byte: float
    intensity_flop_per_byte: float
    blas_level: int
    work_formula: str
    traffic_formula: str
    note: str
    integer: bool
    def point(self, time_s: float, name: str = "") -> Point: ...
    def to_dict(self) -> dict: ...

def kernel(name: str, dtype: str = "", **sizes: float) -> KernelCount: ...
def kernels() -> List[dict]: ...
def dtypes() -> List[dict]: ...

class Chart:
    machine: Machine
    points: List[Point]
    overlays: List[Machine]
    title: str
    workload_intensity_flop_per_byte: Optional[float]
    no_overlap_curve: bool
    def __init__(self, machine: Machine, points: Sequence[Point] = (), *,
                 overlays: Sequence[Machine] = (), title: Optional[str] = None,
                 workload_intensity_flop_per_byte: Optional[float] = None,
                 no_overlap_curve: bool = False) -> None: ...
    def to_svg(self) -> str: ...
    def to_html(self) -> str: ...
    def to_csv(self) -> str: ...
    def to_dict(self) -> dict: ...
    def to_terminal(self, columns: int = 100) -> str: ...
    def save(self, path: Union[str, "os.PathLike[str]"]) -> None: ...
    def _repr_svg_(self) -> str: ...
    def _repr_html_(self) -> str: ...
