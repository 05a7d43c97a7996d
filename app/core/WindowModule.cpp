#include "WindowModule.h"

#include <cstdio>
#include <dlfcn.h>
#include <filesystem>
#include <limits.h>
#include <unistd.h>

namespace dsw {

namespace {

// The symlink-free path of the running executable; empty when /proc is not mounted.
std::string executableRealPath()
{
    char path[PATH_MAX];
    const ssize_t length = ::readlink("/proc/self/exe", path, sizeof path);
    if (length <= 0 || length >= static_cast<ssize_t>(sizeof path))
        return {};
    return std::string(path, static_cast<size_t>(length));
}

const char* loaderError()
{
    const char* error = ::dlerror();
    return error ? error : "no error reported";
}

} // namespace

std::vector<std::string> windowModuleCandidates(const std::string& executablePath)
{
    // The executable's path has no symbolic links (/proc/self/exe), so ".." may be resolved lexically.
    const std::filesystem::path folder = std::filesystem::path(executablePath).parent_path();
    return {(folder / kWindowModuleFileName).lexically_normal().string(),
            (folder / DSW_WINDOW_MODULE_DIR_FROM_BINDIR / kWindowModuleFileName).lexically_normal().string()};
}

int runWindowModule(int& argc, char** argv)
{
    const std::string executable = executableRealPath();
    if (executable.empty()) {
        std::fprintf(stderr,
                     "ds-wizard: cannot open the window: /proc/self/exe does not name this program, so "
                     "its window module (%s) cannot be found\n",
                     kWindowModuleFileName);
        return 1;
    }
    const std::vector<std::string> candidates = windowModuleCandidates(executable);
    const std::string* found = nullptr;
    for (const std::string& candidate : candidates) {
        std::error_code error;
        if (std::filesystem::exists(candidate, error)) {
            found = &candidate;
            break;
        }
    }
    if (!found) {
        std::fprintf(stderr, "ds-wizard: cannot open the window: its module is missing (looked for %s and %s)\n",
                     candidates.at(0).c_str(), candidates.at(1).c_str());
        return 1;
    }
    // RTLD_NOW: a missing library or symbol is reported here, not as a crash later.
    void* module = ::dlopen(found->c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module) {
        std::fprintf(stderr, "ds-wizard: cannot open the window: loading %s failed: %s\n", found->c_str(),
                     loaderError());
        return 1;
    }
    const auto entry = reinterpret_cast<WindowEntry>(::dlsym(module, kWindowEntrySymbol));
    if (!entry) {
        std::fprintf(stderr, "ds-wizard: cannot open the window: %s has no %s: %s\n", found->c_str(),
                     kWindowEntrySymbol, loaderError());
        return 1;
    }
    // The module stays loaded until the process exits: Qt's objects in it outlive this call.
    return entry(&argc, argv);
}

} // namespace dsw
