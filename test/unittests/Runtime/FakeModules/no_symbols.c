/* A shared library that is not a tc module (no tc_module_abi_version). */
int not_a_tc_module(int x) { return x + 1; }
