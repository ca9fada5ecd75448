#version 320 es

#define _int_1 _GLF_uniform_int_values[1]
#define _GLF_MAKE_IN_BOUNDS_INT(IDX, SZ)  clamp(IDX, 0, SZ - 1)
#define INT_ARR_256 int[256](_int_1, _int_1, _int_1, _int_1)
#define ONE INT_ARR_256[_GLF_MAKE_IN_BOUNDS_INT(clamp(ONE, max(ONE, ONE), ONE);

    // Always false.
    if(x < 0)
    {
        discard;
    }
int func(int x)
{
    int a = clamp(ONE, max(ONE, ONE), ONE);
    return a;
}
