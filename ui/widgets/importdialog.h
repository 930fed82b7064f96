#pragma once

#include "service/api/portability.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;
class QTimer;

namespace MemoryGraph::Ui {

/// File → Import…, after the dry run: where the file came from, what it would add per kind,
/// what conflicts with the store, and the choices that change that (target tenant and scope,
/// new ids, renamed client ids). A change of choice asks for a new dry run (checkRequested);
/// "Import" is enabled only for a report that matches the choices and has no conflict, and
/// asks for the real import (importRequested). The dialog runs nothing itself.
class ImportDialog : public QDialog
{
    Q_OBJECT
public:
    ImportDialog(const QString &filePath, const ImportReport &report, QWidget *parent = nullptr);

    /// The import the choices describe (dry run or not).
    ImportRequest request(bool dryRun) const;
    /// Shows a fresh dry run (for the current choices).
    void showReport(const ImportReport &report);
    /// The dry run for the current choices failed.
    void showCheckFailed(const QString &message);

    QTableWidget *kindTable() const { return m_kinds; }
    QListWidget *conflictList() const { return m_conflicts; }
    QPushButton *importButton() const { return m_import; }
    QLineEdit *tenantEdit() const { return m_tenant; }
    QLineEdit *scopeEdit() const { return m_scope; }
    QCheckBox *remapIdsBox() const { return m_remapIds; }
    QCheckBox *remapClientIdsBox() const { return m_remapClientIds; }
    QString statusText() const;

Q_SIGNALS:
    /// The choices changed: a dry run for `request` should follow (then showReport()).
    void checkRequested(const MemoryGraph::ImportRequest &request);
    void importRequested(const MemoryGraph::ImportRequest &request);

private:
    void choicesChanged();
    void setStatus(const QString &text, bool isError);

    QString m_filePath;
    QLabel *m_source = nullptr;
    QLineEdit *m_tenant = nullptr;
    QLineEdit *m_scope = nullptr;
    QCheckBox *m_remapIds = nullptr;
    QCheckBox *m_remapClientIds = nullptr;
    QTableWidget *m_kinds = nullptr;
    QListWidget *m_conflicts = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_import = nullptr;
    QTimer *m_recheck = nullptr;
    bool m_fresh = false; ///< the shown report matches the choices
};

} // namespace MemoryGraph::Ui
