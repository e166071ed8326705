"""Bit tricks on uint64 masks for the kernels (hands as sets of card slots)."""
import numpy as np
from llvmlite import ir
from numba import njit, types, uint64
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, args)

    return types.uint64(types.uint64), codegen


@intrinsic
def ctz(typingctx, x):
    """Index of the lowest set bit (64 for zero)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

    return types.uint64(types.uint64), codegen


@njit(cache=True, inline="always")
def nth_bit(m, r):
    """Index of the r-th (from 0) set bit of m, in increasing bit order."""
    m = uint64(m)
    for _ in range(r):
        m &= m - uint64(1)
    return np.int64(ctz(m))


@intrinsic
def top_bit(typingctx, x):
    """Index of the highest set bit (-1 for zero)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        fn = builder.module.declare_intrinsic("llvm.ctlz", [ir.IntType(64), ir.IntType(1)])
        lz = builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)

    return types.int64(types.uint64), codegen
