#include "ui/debounce.h"

#include <QTimer>

namespace MemoryGraph::Ui {

QTimer *createDebounceTimer(QObject *owner, int delayMs, std::function<void()> onTimeout)
{
    auto *timer = new QTimer(owner);
    timer->setSingleShot(true);
    timer->setInterval(delayMs);
    QObject::connect(timer, &QTimer::timeout, owner, std::move(onTimeout));
    return timer;
}

} // namespace MemoryGraph::Ui
