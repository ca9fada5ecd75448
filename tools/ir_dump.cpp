// Placeholder main until the parser lands (issue 2, in progress).
#include <cstdio>
int main() { return 0; }
