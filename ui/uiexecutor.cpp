#include "ui/uiexecutor.h"

#include <QThread>

#include <algorithm>

namespace MemoryGraph::Ui {

namespace {

/// Enough that a slow call (a remote embedder, a long chain verification) never holds up
/// the other pages' loads, few enough not to crowd the service's own workers.
constexpr int MinReadThreads = 4;

} // namespace

UiExecutor::UiExecutor()
{
    m_reads.setMaxThreadCount(std::max(MinReadThreads, QThread::idealThreadCount()));
    m_changes.setMaxThreadCount(1);
}

UiExecutor::~UiExecutor()
{
    waitForDone();
}

void UiExecutor::waitForDone()
{
    // Callbacks run on the GUI thread, which is blocked here, so no new call can start.
    m_changes.waitForDone();
    m_reads.waitForDone();
}

int UiExecutor::maxReadThreads() const
{
    return m_reads.maxThreadCount();
}

} // namespace MemoryGraph::Ui
