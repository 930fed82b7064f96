#include "app/parentconsole.h"

#include <QtGlobal>

#ifdef Q_OS_WIN
#include <QtCore/qt_windows.h>

#include <cstdio>
#endif

namespace MemoryGraph {

#ifdef Q_OS_WIN

namespace {

bool hasHandle(DWORD stream)
{
    const HANDLE handle = ::GetStdHandle(stream);
    return handle != nullptr && handle != INVALID_HANDLE_VALUE;
}

} // namespace

void attachToParentConsole()
{
    const bool stdoutSet = hasHandle(STD_OUTPUT_HANDLE);
    const bool stderrSet = hasHandle(STD_ERROR_HANDLE);
    if (!::AttachConsole(ATTACH_PARENT_PROCESS))
        return; // started from Explorer, the Start menu or a service: no console to join
    FILE *reopened = nullptr;
    if (!stdoutSet)
        freopen_s(&reopened, "CONOUT$", "w", stdout);
    if (!stderrSet)
        freopen_s(&reopened, "CONOUT$", "w", stderr);
}

#else

void attachToParentConsole() { }

#endif

} // namespace MemoryGraph
