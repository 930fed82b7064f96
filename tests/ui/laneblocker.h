#pragma once

#include "ui/uiexecutor.h"

#include <QObject>
#include <QProgressDialog>
#include <QPushButton>

#include <condition_variable>
#include <memory>
#include <mutex>

namespace MemoryGraph::Test {

/// Occupies every thread of an executor lane until released, so that a call queued behind it
/// starts only when the test says: e.g. after it pressed Cancel on the call's progress dialog.
/// Declare it after the executor (it must be released before the executor waits for its calls).
class LaneBlocker
{
public:
    LaneBlocker(Ui::UiExecutor &executor, Ui::UiExecutor::Lane lane, int threads)
        : m_state(std::make_shared<State>())
    {
        for (int i = 0; i < threads; ++i) {
            executor.run(
                &m_context,
                [state = m_state]() {
                    std::unique_lock<std::mutex> guard(state->lock);
                    ++state->started;
                    state->changed.notify_all();
                    state->changed.wait(guard, [&state]() { return state->released; });
                    return 0;
                },
                [](int) {}, lane);
        }
        std::unique_lock<std::mutex> guard(m_state->lock);
        m_state->changed.wait(guard, [this, threads]() { return m_state->started == threads; });
    }
    ~LaneBlocker() { release(); }
    LaneBlocker(const LaneBlocker &) = delete;
    LaneBlocker &operator=(const LaneBlocker &) = delete;

    void release()
    {
        std::lock_guard<std::mutex> guard(m_state->lock);
        m_state->released = true;
        m_state->changed.notify_all();
    }

private:
    struct State
    {
        std::mutex lock;
        std::condition_variable changed;
        int started = 0;
        bool released = false;
    };

    QObject m_context;
    std::shared_ptr<State> m_state;
};

/// Presses the Cancel button of a progress dialog, as the operator would.
inline bool pressCancel(QProgressDialog *dialog)
{
    auto *button = dialog ? dialog->findChild<QPushButton *>() : nullptr;
    if (!button)
        return false;
    button->click();
    return true;
}

} // namespace MemoryGraph::Test
