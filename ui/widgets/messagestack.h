#pragma once

#include <QStackedWidget>

class QLabel;

namespace MemoryGraph::Ui {

/// A pane that shows either a centred, greyed hint ("Select a row to see details", a load
/// error) or its real content. The detail panes and the page skeleton's detail side use it, so
/// every placeholder in the console looks and behaves the same.
class MessageStack : public QStackedWidget
{
    Q_OBJECT
public:
    /// `messageName` is the hint label's object name (tests and style sheets find it by it).
    MessageStack(QWidget *content, const QString &messageName, QWidget *parent);

    /// A stack that fills `owner` edge to edge (owner gets a margin-less layout holding it).
    static MessageStack *fill(QWidget *owner, QWidget *content, const QString &messageName);

    /// Hides the content behind the hint.
    void showMessage(const QString &message);
    void showContent();
    bool isShowingMessage() const;
    /// The hint's text; empty while the content shows.
    QString messageText() const;
    QLabel *messageLabel() const { return m_message; }

private:
    QLabel *m_message = nullptr;
    QWidget *m_content = nullptr;
};

} // namespace MemoryGraph::Ui
