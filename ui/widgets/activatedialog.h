#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace MemoryGraph::Ui {

/// Asks for an activation's outcome, whether it counts as a use, and why (spec §4.6).
class ActivateDialog : public QDialog
{
    Q_OBJECT
public:
    ActivateDialog(const QString &nodeName, QWidget *parent = nullptr);

    QString outcome() const;
    bool activate() const;
    QString reason() const;

    QComboBox *outcomeCombo() const { return m_outcome; }
    QCheckBox *activateCheck() const { return m_activate; }
    QLineEdit *reasonEdit() const { return m_reason; }

private:
    QComboBox *m_outcome = nullptr;
    QCheckBox *m_activate = nullptr;
    QLineEdit *m_reason = nullptr;
};

} // namespace MemoryGraph::Ui
