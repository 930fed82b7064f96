#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace MemoryGraph::LayeredContext {
struct Output;
}

namespace MemoryGraph::Ui {

/// Shows the layered context of a context assembly (spec §4.13): the merged prompt text and one
/// line on how the budget was spent.
class LayeredContextView : public QWidget
{
    Q_OBJECT
public:
    explicit LayeredContextView(QWidget *parent = nullptr);

    void setResult(const LayeredContext::Output &output, const QString &selectedTool);
    void clear();

    QString text() const;
    QString summaryText() const;

private:
    QPlainTextEdit *m_text = nullptr;
    QLabel *m_summary = nullptr;
};

} // namespace MemoryGraph::Ui
