#version 310 es
precision highp float;
precision highp int;

layout(location = 0) out vec4 _GLF_color;

float one()
{
    return 2.0;
}

void main()
{
    vec2 v = vec2(0);
    bool alwaysFalse = gl_FragCoord.x < -1.0;

    do
    {
        if (v.x < 2.0) // Always true
        {
            if (!alwaysFalse)
                v[int(one())] = 1.0;
        }
    } while (alwaysFalse);

    if (v[0] == 0.0 && v[1] == 1.0)
        _GLF_color = vec4(1, 0, 0, 1);
    else
        _GLF_color = vec4(0);
}
