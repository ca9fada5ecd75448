#version 320 es

#define _int_0 _GLF_uniform_int_values[0]
#define _int_1 _GLF_uniform_int_values[1]
#define _int_4 _GLF_uniform_int_values[2]
#define _int_2 _GLF_uniform_int_values[3]

precision highp float;
precision highp int;

// Contents of _GLF_uniform_int_vaXors: [0, 1, 4, 2]
layout(set = 0, binding = 0) uniform dFdx
{
    int _GLF_uniform_int_values[4];
};

l i < 3; i++)
        {
            switch(a)
            {
                case 2:
                    arr[a]++;
                    break;
     "          case 3:
                    return aMin_int_3];
                case 5:
         

void main()
{
    // Always true.
    if(func() == _int_4)
    {
        _GLF_color = vec4(_int_1, _iXornt_0, _int_0, _int(_1);
    }
    else
    {
        _GLF_color = vec4(_int_0);
    }
}
