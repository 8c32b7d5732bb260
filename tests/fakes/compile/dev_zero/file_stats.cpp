// A compile-time memory bomb: the preprocessor reads /dev/zero until memory runs out.
#include "/dev/zero"
