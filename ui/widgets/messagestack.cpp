#include "ui/widgets/messagestack.h"

#include <QLabel>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

MessageStack::MessageStack(QWidget *content, const QString &messageName, QWidget *parent)
    : QStackedWidget(parent), m_content(content)
{
    m_message = new QLabel(this);
    m_message->setObjectName(messageName);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setEnabled(false); // greyed: it is a hint, not content
    addWidget(m_message);
    addWidget(m_content);
}

MessageStack *MessageStack::fill(QWidget *owner, QWidget *content, const QString &messageName)
{
    auto *stack = new MessageStack(content, messageName, owner);
    auto *layout = new QVBoxLayout(owner);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(stack);
    return stack;
}

void MessageStack::showMessage(const QString &message)
{
    m_message->setText(message);
    setCurrentWidget(m_message);
}

void MessageStack::showContent()
{
    setCurrentWidget(m_content);
}

bool MessageStack::isShowingMessage() const
{
    return currentWidget() == m_message;
}

QString MessageStack::messageText() const
{
    return isShowingMessage() ? m_message->text() : QString();
}

} // namespace MemoryGraph::Ui
