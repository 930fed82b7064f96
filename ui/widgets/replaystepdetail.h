#pragma once

#include "service/api/replayviews.h"

#include <QPlainTextEdit>

namespace MemoryGraph::Ui {

/// The current replay step in words: tool and input, preconditions, the latest result with its
/// postconditions, artifacts and error. Read-only; the page chooses the step.
class ReplayStepDetail : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit ReplayStepDetail(QWidget *parent = nullptr);

    void showStep(const ReplayStepView &step, int position, int count);
    /// Replaces the text with a note (no run, no steps, ...).
    void showMessage(const QString &message);
};

} // namespace MemoryGraph::Ui
