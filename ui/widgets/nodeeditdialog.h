#pragma once

#include "service/api/lifecyclerequests.h"
#include "service/core/records.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace MemoryGraph::Ui {

/// Edits a node's title, summary, tier, lane, owners, salience and slots (DESIGN decision 4).
/// The slots JSON is checked as it is typed; Save stays disabled while it is not an object.
class NodeEditDialog : public QDialog
{
    Q_OBJECT
public:
    NodeEditDialog(const NodeRecord &node, QWidget *parent = nullptr);

    /// The fields the operator changed (node id, scope and audit fields are the caller's).
    NodeEditRequest request() const;
    /// The slots text parses as a JSON object.
    bool isValid() const { return m_slotsValid; }
    QString slotsError() const;

    QLineEdit *titleEdit() const { return m_title; }
    QPlainTextEdit *summaryEdit() const { return m_summary; }
    QComboBox *tierCombo() const { return m_tier; }
    QComboBox *laneCombo() const { return m_lane; }
    QDoubleSpinBox *salienceSpin() const { return m_salience; }
    QPlainTextEdit *slotsEdit() const { return m_slots; }

private:
    void validateSlots();

    NodeRecord m_node;
    double m_initialSalience = 0.0;
    bool m_slotsValid = true;
    QJsonObject m_parsedSlots;

    QLineEdit *m_title = nullptr;
    QPlainTextEdit *m_summary = nullptr;
    QComboBox *m_tier = nullptr;
    QComboBox *m_lane = nullptr;
    QLineEdit *m_ownerAgent = nullptr;
    QLineEdit *m_ownerTeam = nullptr;
    QDoubleSpinBox *m_salience = nullptr;
    QPlainTextEdit *m_slots = nullptr;
    QLabel *m_slotsStatus = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace MemoryGraph::Ui
