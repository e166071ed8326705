"""Arrays without reference counting, for the hot loops of the kernels.

Numba increments and decrements an array's reference count (an atomic instruction) every time
the array is passed to a function that is not inlined, and our kernels pass their small state
arrays to helpers and strategies dozens of times per deal: measured, that was 40% of a random
deal. ``borrow(a)`` returns a view of ``a`` that carries no owner, so those counts become no-ops.
The caller must keep ``a`` itself alive (referenced) for as long as the view is used.
"""
from numba import carray, njit, types
from numba.extending import intrinsic


@intrinsic
def _data_pointer(typingctx, arr):
    if not isinstance(arr, types.Array):
        return None
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        return ary.data

    return sig, codegen


@njit(cache=True, inline="always")
def borrow(a):
    """Unowned view of a C-contiguous 1-d or 2-d array."""
    return carray(_data_pointer(a), a.shape)


@intrinsic
def keep_alive(typingctx, owners):
    """A use of ``owners`` (an array or tuple of arrays) placed after the last use of their
    views, so that they are not freed earlier. An intrinsic, not a cached function: compiled
    for each game's State type, a cached function's index in the shared engine cache named
    every game's State, and a process that could not import one of those games (a plug-in
    game, the test suite's small fourth game) failed to load it."""
    def codegen(context, builder, signature, args):
        return context.get_constant(types.intp, 0)

    return types.intp(owners), codegen
