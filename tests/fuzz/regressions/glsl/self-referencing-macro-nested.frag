#version 450
layout(location = 0) out float o;
#define D(x) efine D(x) x x
void GL_EXT_shader_explicit_types_float(D(D(D(D(D(DDD(es_float(D(D(D(D(D(DDD(((D(D(D׻׻׻׻(D(((+x)))))))))))((D(D(D׻׻׻׻(D(((+x))))))))))))))))))))))))); }
