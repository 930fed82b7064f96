#pragma once

#include <functional>

class QObject;
class QTimer;

namespace MemoryGraph::Ui {

/// A single-shot timer owned by `owner` that calls `onTimeout` `delayMs` after its last start():
/// a burst of starts (keystrokes, commits) costs one call. start() restarts the wait, stop()
/// drops it.
QTimer *createDebounceTimer(QObject *owner, int delayMs, std::function<void()> onTimeout);

} // namespace MemoryGraph::Ui
