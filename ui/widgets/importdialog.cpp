#include "ui/widgets/importdialog.h"

#include "ui/debounce.h"
#include "ui/widgets/statustext.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

namespace {

constexpr int RecheckDebounceMs = 400;

struct KindRow
{
    const char *key;
    const char *label;
};

const KindRow kKinds[] = {{"node", QT_TRANSLATE_NOOP("ImportDialog", "Nodes")},
                          {"edge", QT_TRANSLATE_NOOP("ImportDialog", "Edges")},
                          {"rule", QT_TRANSLATE_NOOP("ImportDialog", "Rule states")},
                          {"decision", QT_TRANSLATE_NOOP("ImportDialog", "Decisions")},
                          {"rule_feedback", QT_TRANSLATE_NOOP("ImportDialog", "Rule feedback")},
                          {"commit", QT_TRANSLATE_NOOP("ImportDialog", "Commits (history)")}};

QTableWidgetItem *numberItem(qint64 value)
{
    auto *item = new QTableWidgetItem(QString::number(value));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

ImportDialog::ImportDialog(const QString &filePath, const ImportReport &report, QWidget *parent)
    : QDialog(parent), m_filePath(filePath)
{
    setWindowTitle(tr("Import memories"));
    resize(720, 560);

    m_source = new QLabel(this);
    m_source->setObjectName(QStringLiteral("importSource"));
    m_source->setWordWrap(true);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_tenant = new QLineEdit(report.tenantId, this);
    m_tenant->setObjectName(QStringLiteral("importTenant"));
    m_scope = new QLineEdit(report.scope, this);
    m_scope->setObjectName(QStringLiteral("importScope"));
    m_remapIds = new QCheckBox(tr("Give every record a &new id (import a copy)"), this);
    m_remapIds->setObjectName(QStringLiteral("importRemapIds"));
    m_remapIds->setChecked(report.idPolicy == IdPolicy::Remap);
    m_remapClientIds = new QCheckBox(tr("&Rename client ids the target scope already uses"), this);
    m_remapClientIds->setObjectName(QStringLiteral("importRemapClientIds"));
    m_remapClientIds->setChecked(report.clientIdPolicy == IdPolicy::Remap);
    auto *form = new QFormLayout;
    form->addRow(tr("Into &tenant:"), m_tenant);
    form->addRow(tr("Into s&cope:"), m_scope);
    form->addRow(QString(), m_remapIds);
    form->addRow(QString(), m_remapClientIds);

    m_kinds = new QTableWidget(int(std::size(kKinds)), 5, this);
    m_kinds->setObjectName(QStringLiteral("importKinds"));
    m_kinds->setHorizontalHeaderLabels({tr("In the file"), tr("To add"), tr("Conflicts"),
                                        tr("New ids"), tr("Renamed client ids")});
    QStringList rows;
    for (const KindRow &k : kKinds)
        rows << tr(k.label);
    m_kinds->setVerticalHeaderLabels(rows);
    m_kinds->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_kinds->setSelectionMode(QAbstractItemView::NoSelection);
    m_kinds->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_kinds->horizontalHeader()->setStretchLastSection(true);
    m_kinds->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    m_conflicts = new QListWidget(this);
    m_conflicts->setObjectName(QStringLiteral("importConflicts"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("importStatus"));
    m_status->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_import = buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    m_import->setObjectName(QStringLiteral("importButton"));
    m_import->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_import, &QPushButton::clicked, this, [this] {
        if (m_fresh)
            Q_EMIT importRequested(request(false));
    });

    m_recheck = createDebounceTimer(this, RecheckDebounceMs,
                                    [this] { Q_EMIT checkRequested(request(true)); });
    connect(m_tenant, &QLineEdit::textEdited, this, &ImportDialog::choicesChanged);
    connect(m_scope, &QLineEdit::textEdited, this, &ImportDialog::choicesChanged);
    connect(m_remapIds, &QCheckBox::toggled, this, &ImportDialog::choicesChanged);
    connect(m_remapClientIds, &QCheckBox::toggled, this, &ImportDialog::choicesChanged);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_source);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("What the import adds:"), this));
    layout->addWidget(m_kinds);
    layout->addWidget(new QLabel(tr("Conflicts with the store:"), this));
    layout->addWidget(m_conflicts, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    showReport(report);
    // Every kind in view at once.
    m_kinds->setFixedHeight(m_kinds->horizontalHeader()->sizeHint().height()
                            + m_kinds->verticalHeader()->length() + 2 * m_kinds->frameWidth());
}

ImportRequest ImportDialog::request(bool dryRun) const
{
    ImportRequest r;
    r.tenantId = m_tenant->text().trimmed();
    r.scope = m_scope->text().trimmed();
    r.dryRun = dryRun;
    r.idPolicy = m_remapIds->isChecked() ? IdPolicy::Remap : IdPolicy::Preserve;
    r.clientIdPolicy = m_remapClientIds->isChecked() ? IdPolicy::Remap : IdPolicy::Preserve;
    return r;
}

void ImportDialog::showReport(const ImportReport &report)
{
    m_source->setText(
        tr("%1\nexported from %2 / %3 on %4 by Memory Graph %5")
            .arg(QDir::toNativeSeparators(m_filePath), report.sourceTenantId, report.sourceScope,
                 QLocale().toString(report.exportedAt.toLocalTime(), QLocale::ShortFormat),
                 report.appVersion));
    for (int row = 0; row < int(std::size(kKinds)); ++row) {
        const ImportKindReport k = report.kinds.value(QString::fromLatin1(kKinds[row].key));
        const qint64 values[]
            = {k.records, k.added, k.conflicts, k.remappedIds, k.remappedClientIds};
        for (int column = 0; column < int(std::size(values)); ++column)
            m_kinds->setItem(row, column, numberItem(values[column]));
    }
    m_conflicts->clear();
    for (const ImportConflict &c : report.conflicts) {
        const QString what = c.reason == QLatin1String("client_id_exists")
                                 ? tr("client id '%1' is already used in the scope").arg(c.clientId)
                                 : tr("id %1 already exists in the store").arg(c.id);
        m_conflicts->addItem(tr("line %1: %2 \u2014 %3").arg(c.line).arg(c.kind, what));
    }
    if (report.conflictCount > report.conflicts.size())
        m_conflicts->addItem(
            tr("\u2026 and %1 more").arg(report.conflictCount - report.conflicts.size()));
    m_fresh = true;
    m_import->setEnabled(report.canImport());
    const QString vectors = tr("%1 vectors kept, %2 nodes to embed again.")
                                .arg(report.vectorsKept)
                                .arg(report.vectorsPending);
    if (report.canImport())
        setStatus(tr("Nothing conflicts: the import can go ahead. %1").arg(vectors), false);
    else
        setStatus(tr("%n record(s) conflict with what the store holds. Tick \u201cnew id\u201d "
                     "and \u201crename client ids\u201d to import a copy, or pick another scope.",
                     nullptr, int(report.conflictCount)),
                  true);
}

void ImportDialog::showCheckFailed(const QString &message)
{
    m_fresh = false;
    m_import->setEnabled(false);
    setStatus(message, true);
}

QString ImportDialog::statusText() const
{
    return m_status->text();
}

void ImportDialog::choicesChanged()
{
    m_fresh = false;
    m_import->setEnabled(false);
    setStatus(tr("Checking again\u2026"), false);
    m_recheck->start();
}

void ImportDialog::setStatus(const QString &text, bool isError)
{
    showStatus(m_status, text, isError);
}

} // namespace MemoryGraph::Ui
