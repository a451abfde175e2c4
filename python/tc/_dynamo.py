"""tc as a TorchDynamo backend: ``torch.compile(model, backend="tc")``.

Dynamo hands the backend each captured FX graph with example inputs. With
torch's default of inlining nn.Modules, the module's parameters and
buffers arrive as graph inputs too; tc freezes them into the compiled model
(as initializers, so weights are packed at compile time) and checks on
every call that they are the same tensors, unmodified (their version
counters), recompiling when one changed. Sizes that Dynamo made symbolic
arrive as SymInt inputs: each is computed from the input dimension it
belongs to, and that dimension stays symbolic in the model.

A graph tc cannot take (autograd needed, an unexported operator, an
unsupported ONNX node) runs eagerly and its reason is logged once and
counted in tc.stats(), unless ``options={"fallback": False}``, which raises.
Options: ``target``, ``device``, ``threads``, ``flags``, ``precision``,
``fallback``; ``mode`` as torch.compile's.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, List

from ._tc import TcError
from . import _stats
from . import _torch as tt

_OPTIONS = ("target", "device", "threads", "flags", "precision", "fallback")


def _is_weight(torch, node, value) -> bool:
    """Whether a graph input is a parameter or buffer of the module."""
    if isinstance(value, torch.nn.Parameter):
        return True
    source = getattr(node.meta.get("grapharg"), "source", None)
    try:
        from torch._dynamo.source import is_from_unspecialized_param_buffer_source
        return source is not None and is_from_unspecialized_param_buffer_source(source)
    except ImportError:  # pragma: no cover - an older or newer torch
        return False


def _version(tensor):
    try:
        return tensor._version
    except RuntimeError:  # inference tensors keep no version counter
        return None


class _Graph:
    """One Dynamo graph compiled with tc."""

    def __init__(self, gm, example_inputs, options: tt.Options):
        torch = tt._torch()
        self._gm = gm
        self._options = options
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        if len(placeholders) != len(example_inputs):
            raise TcError("the graph's inputs do not match Dynamo's example inputs")
        self._weights = {}  # index -> (tensor, version)
        self._inputs: List[int] = []  # the indices that stay inputs
        self._sizes = {}  # index of a SymInt input -> (input position, dim)
        symbols = {}  # str(symbol) -> (input position, dim)
        dims = []
        for index, (node, value) in enumerate(zip(placeholders, example_inputs)):
            if isinstance(value, torch.Tensor):
                if _is_weight(torch, node, value):
                    self._weights[index] = (value, _version(value))
                    continue
                fake = node.meta.get("example_value")
                shape = fake.shape if fake is not None else value.shape
                symbolic = [d for d, size in enumerate(shape) if not isinstance(size, int)]
                for d in symbolic:
                    symbols.setdefault(str(shape[d]), (len(self._inputs), d))
                dims.append(tuple(symbolic))
                self._inputs.append(index)
        for index, (node, value) in enumerate(zip(placeholders, example_inputs)):
            if isinstance(value, torch.Tensor):
                continue
            # At a recompile the value is a plain int; the symbol is in the meta.
            symbol = node.meta.get("example_value", value)
            if not isinstance(symbol, torch.SymInt) or str(symbol) not in symbols:
                raise TcError(f"graph input '{node.name}' is a {type(value).__name__} "
                              "that is no input's size")
            self._sizes[index] = symbols[str(symbol)]
        if torch.is_grad_enabled() and any(
                example_inputs[i].requires_grad
                for i in list(self._weights) + self._inputs):
            raise TcError("the graph needs autograd (its inputs or parameters require "
                          "grad) and tc compiles inference: call the model under "
                          "torch.no_grad() or torch.inference_mode()")
        self._count = len(placeholders)
        self._names = [placeholders[i].name for i in self._inputs]
        self._dims = dims
        self._model = None

    def build(self, args) -> None:
        """Exports and compiles the graph at `args`, the first call's. Not at
        Dynamo's compile: torch.export cannot run inside it (the frame's
        guards and shape environment are live)."""
        torch = tt._torch()
        module = self._frozen(torch)
        examples = [args[i] for i in self._inputs]
        with torch.no_grad():
            leaves, self._spec = torch.utils._pytree.tree_flatten(module(*examples))
            if not all(isinstance(leaf, torch.Tensor) for leaf in leaves):
                raise TcError("the graph returns values that are not tensors")
            self._model = tt.build(module, examples, self._dims, self._options, self._names)

    @property
    def ready(self) -> bool:
        return self._model is not None

    def _frozen(self, torch):
        """The graph as a module of its remaining inputs: the weights become
        buffers (get_attr), each symbolic size a size() of its input. A new
        graph rather than a wrapper around Dynamo's: the nodes' metadata
        (fake tensors of Dynamo's shape environment, whose symbols read
        L['x'].size()[0]) is dropped, and torch.export traces plain code.
        PyTorch's fused inference kernels become ordinary ops (_fastpath)."""
        gm = self._gm
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        graph = torch.fx.Graph()
        env = {}
        for index in self._inputs:
            env[placeholders[index]] = graph.placeholder(placeholders[index].name)
        for index, (tensor, _) in self._weights.items():
            name = f"_tc_weight_{index}"
            if not hasattr(gm, name):
                gm.register_buffer(name, tensor.detach(), persistent=False)
            env[placeholders[index]] = graph.get_attr(name)
        for index, (position, dim) in self._sizes.items():
            source = env[placeholders[self._inputs[position]]]
            env[placeholders[index]] = graph.call_method("size", (source, dim))
        for node in gm.graph.nodes:
            if node.op != "placeholder":
                env[node] = graph.node_copy(node, lambda n: env[n])
        for node in graph.nodes:
            node.meta = {}
        from ._fastpath import replace_fused_kernels
        replace_fused_kernels(graph)
        return torch.fx.GraphModule(gm, graph)

    def stale(self, args) -> bool:
        return any(args[i] is not tensor or _version(args[i]) != version
                   for i, (tensor, version) in self._weights.items())

    def __call__(self, *args):
        torch = tt._torch()
        outputs = self._model.run([args[i] for i in self._inputs], output_type="torch")
        return torch.utils._pytree.tree_unflatten(outputs, self._spec)


def backend(gm, example_inputs, **kwargs) -> Callable:
    """The Dynamo backend (registered as "tc")."""
    options = dict(kwargs.pop("options", None) or {})
    mode = kwargs.pop("mode", None) or "default"
    kwargs.pop("name", None)
    unknown = sorted(set(options) - set(_OPTIONS)) + sorted(kwargs)
    if unknown:
        raise TcError(f"unknown tc backend option {', '.join(map(repr, unknown))} "
                      f"(tc's options: {', '.join(_OPTIONS)})")
    fallback = options.pop("fallback", True)
    if "flags" in options:
        options["flags"] = tuple(options["flags"])
    settings = tt.Options(mode=mode, **options)
    try:
        graph = _Graph(gm, example_inputs, settings)
    except TcError as error:
        if not fallback:
            raise
        _stats.fallback(f"torch.compile(backend='tc'): {error}")
        return gm.forward
    state = {"graph": graph}
    lock = threading.Lock()

    def run(*args):
        current = state["graph"]
        if current is not None and current.ready and not current.stale(args):
            return current(*args)
        with lock:
            current = state["graph"]
            if current is not None and current.ready and current.stale(args):
                # A weight was replaced or changed in place since the compile.
                _stats.count("recompiles")
                current = state["graph"] = _Graph(gm, list(args), settings)
            if current is not None and not current.ready:
                try:
                    current.build(args)
                    _stats.count("dynamo_graphs")
                except TcError as error:
                    if not fallback:
                        raise
                    _stats.fallback(f"torch.compile(backend='tc'): {error}")
                    current = state["graph"] = None
        if current is None:
            return gm(*args)
        return current(*args)

    return run


def register() -> None:
    """Registers the backend with torch as "tc" (the wheel also declares it
    as a torch_dynamo_backends entry point, found without importing tc)."""
    from torch._dynamo.backends import registry
    if "tc" not in registry._COMPILER_FNS:
        registry.register_backend(compiler_fn=backend, name="tc")
