#pragma once

#include <QDialog>

class QLineEdit;

namespace MemoryGraph::Ui {

/// Confirms forgetting a node, naming it, and asks for the reason kept in the audit commit.
class ForgetDialog : public QDialog
{
    Q_OBJECT
public:
    ForgetDialog(const QString &nodeName, QWidget *parent = nullptr);

    QString reason() const;
    QLineEdit *reasonEdit() const { return m_reason; }

private:
    QLineEdit *m_reason = nullptr;
};

} // namespace MemoryGraph::Ui
