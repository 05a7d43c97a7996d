// A loadable shared object that is not ds-wizard's window module: it lacks dsw_window_main
// (TestWindowModule puts it where the module belongs).
extern "C" int dsw_not_the_window_entry() { return 0; }
