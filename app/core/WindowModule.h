#pragma once
#include <string>
#include <vector>

namespace dsw {

// The window lives in a module, ds-wizard-window.so (app/WindowEntry.cpp), so that ds-wizard itself
// links QtCore only and a command loads no GUI library. The module exports one C function:
//   extern "C" int dsw_window_main(int* argc, char** argv);
// which creates the QApplication and the main window and returns the event loop's exit status.
inline constexpr char kWindowModuleFileName[] = "ds-wizard-window.so";
inline constexpr char kWindowEntrySymbol[] = "dsw_window_main";
using WindowEntry = int (*)(int* argc, char** argv);

// Where ds-wizard looks for the module, in order, given the real path of its own executable: beside
// it (the build tree), then the installed place relative to it (LIBDIR/ds-wizard from BINDIR, from
// GNUInstallDirs at configure time). Never the current folder or a variable of the environment: the
// module runs as the user, so it must come from where ds-wizard itself was installed.
std::vector<std::string> windowModuleCandidates(const std::string& executablePath);

// Loads the first candidate that exists and runs its entry; returns its exit status. When none exists,
// or it cannot be loaded, prints one line naming the path and the loader's error to stderr and returns
// 1. Call before any QCoreApplication exists: the module creates the QApplication.
int runWindowModule(int& argc, char** argv);

} // namespace dsw
