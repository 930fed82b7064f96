#pragma once

#include "service/core/result.h"
#include "ui/pages/pageskeleton.h"

#include <QJsonObject>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include <optional>

class QAbstractItemModel;
class QAbstractSpinBox;
class QComboBox;
class QDoubleSpinBox;
class QFrame;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QToolButton;

namespace MemoryGraph {
class MemoryService;
struct RecallOutcome;
} // namespace MemoryGraph

namespace MemoryGraph::Ui {

class GraphCanvas;
class LayeredContextView;
class NodeInspector;
class RankedTableModel;
class SeedTableModel;

/// Runs recall_text (spec §4.4) through the facade exactly as an agent would over HTTP, and
/// shows what came back: the seeds, the ranked list, the context text with its size, and the
/// subgraph on a graph canvas. Clicking a node anywhere (tables, canvas, a context line that
/// names a node) opens it in the inspector.
///
/// Knobs: the profile combo fills the spin boxes with a profile's defaults. With "Server
/// default" nothing is pinned and the server's profile policy decides; a knob the operator edits
/// is pinned and sent. Choosing a named profile pins all seven knobs to its values (the request
/// has no profile field, so that is how a caller asks for one). Budgets of 0 are not sent.
class RecallPage : public PageSkeleton
{
    Q_OBJECT
public:
    RecallPage(MemoryService *service, UiExecutor *executor, QWidget *parent = nullptr);

    QLineEdit *queryEdit() const { return m_queryEdit; }
    QPushButton *runButton() const { return m_runButton; }
    QPushButton *assembleButton() const { return m_assembleButton; }
    LayeredContextView *layeredView() const { return m_layeredView; }
    SeedTableModel *seedModel() const { return m_seedModel; }
    RankedTableModel *rankedModel() const { return m_rankedModel; }
    QTableView *seedView() const { return m_seedView; }
    QTableView *rankedView() const { return m_rankedView; }
    GraphCanvas *graphCanvas() const { return m_canvas; }
    NodeInspector *inspector() const { return m_inspector; }

    QString contextText() const;
    /// "1,234 chars ≈ 309 tokens", plus compaction figures when a budget applied.
    QString contextSizeText() const;
    bool isRunning() const { return m_running; }
    /// Code of the last run's error ("no_embedding_provider", ...); empty after a success.
    QString errorCode() const { return m_errorCode; }

    /// "" for the server default, else strict_edges, quality_first or legacy.
    QString profile() const;
    /// Wire names of the knobs the next run sends (the pinned ones).
    QStringList pinnedKnobs() const;
    /// The recall_text body the next run sends (what an agent would POST).
    QJsonObject requestBody() const;

public Q_SLOTS:
    void run();
    /// Runs context/assemble (spec §4.13) with the same query, scope, knobs and consumer, and
    /// shows its recall like run() plus the layered context.
    void assemble();
    void setQueryText(const QString &text);
    /// Picks a profile by name ("" = server default) and fills the knobs with its values.
    void setProfile(const QString &profile);
    /// Back to the current profile's values; edits are forgotten.
    void resetKnobs();
    /// Shows a node of the last result's scope in the inspector and selects it everywhere.
    void inspectNode(const QString &nodeId);

Q_SIGNALS:
    /// A run finished; `ok` is false when the service returned an error.
    void recallFinished(bool ok);
    /// An assembly finished; `ok` is false when the service returned an error.
    void assembleFinished(bool ok);
    /// The operator asked to see a node on the Graph page.
    void showInGraphRequested(const QString &tenantId, const QString &scope, const QString &nodeId);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    /// "Server default" knobs depend on the tenant (profile policy); refresh the unpinned ones.
    void onScopeChanged() override;

private:
    struct Knob
    {
        QString key; ///< wire name, e.g. "max_nodes"
        QAbstractSpinBox *box = nullptr;
        QLabel *label = nullptr;
        bool pinned = false;
    };

    QWidget *createQueryBar();
    QWidget *createOptions();
    void createProfileCombo();
    void createKnobSpins();
    void createBudgetFields();
    void createConsumerFields();
    void createKnobHintRow();
    void sizeOptionFields();
    void layoutOptions();
    void setOptionsTabOrder();
    QWidget *createResults();
    QWidget *createSeedsPanel();
    QWidget *createContextPanel();
    QSpinBox *addIntKnob(const QString &key, const QString &label, int min, int max,
                         const QString &tip);
    QDoubleSpinBox *addDoubleKnob(const QString &key, const QString &label, const QString &tip);
    /// Adds a knob's label and bookkeeping for `box`; returns its index in m_knobs.
    int registerKnob(const QString &key, const QString &label, const QString &tip,
                     QAbstractSpinBox *box);
    QSpinBox *createBudgetSpin(const QString &objectName, int max, int step, const QString &tip);
    QTableView *createTable(QAbstractItemModel *model, const QString &objectName);

    void applyProfile();
    void fillKnobs(bool onlyUnpinned);
    void onKnobEdited(int index);
    void updateKnobHint();
    /// Starts a run of body: false (with a hint) when there is no query, else the run's generation.
    std::optional<quint64> beginQuery(const QJsonObject &body, const QString &runningText);
    /// Runs call(service, body, maxTextLength, meta) for the current request body, timed, then
    /// show(value, elapsedMs) on success; `finished` reports the outcome either way.
    template<typename Value, typename Call, typename Show>
    void startQuery(const QString &runningText, Call call, Show show,
                    void (RecallPage::*finished)(bool));
    void setBusy(bool busy);
    void applyOutcome(const RecallOutcome &outcome, qint64 elapsedMs);
    void showSeedsAndRanked(const RecallOutcome &outcome);
    void showContextSize(const RecallOutcome &outcome);
    QString compactionText(const QJsonObject &compaction);
    void showSubgraph(const RecallOutcome &outcome);
    void showRunStatus(const RecallOutcome &outcome, qint64 elapsedMs);
    void showError(const Error &error);
    void clearResults();
    void loadDetail(const QString &nodeId);
    void onTableRowChanged(QTableView *view, const QModelIndex &current);
    void syncSelection(const QString &nodeId);
    QString nodeIdAtContextPosition(const QPoint &viewportPos) const;
    void showCurrentInGraph(QTableView *view);

    quint64 m_runGeneration = 0;
    quint64 m_detailGeneration = 0;
    bool m_running = false;
    bool m_syncing = false;
    QString m_errorCode;
    QString m_resultTenant;
    QString m_resultScope;
    QString m_inspectedId;

    QLineEdit *m_queryEdit = nullptr;
    QPushButton *m_runButton = nullptr;
    QPushButton *m_assembleButton = nullptr;
    QProgressBar *m_busyBar = nullptr;
    QToolButton *m_optionsButton = nullptr;
    QFrame *m_optionsFrame = nullptr;

    QComboBox *m_profileCombo = nullptr;
    QVector<Knob> m_knobs;
    QToolButton *m_resetButton = nullptr;
    QLabel *m_knobHint = nullptr;
    QSpinBox *m_tokenBudgetSpin = nullptr;
    QSpinBox *m_charBudgetSpin = nullptr;
    QComboBox *m_compactionCombo = nullptr;
    QLineEdit *m_agentEdit = nullptr;
    QLineEdit *m_teamEdit = nullptr;

    SeedTableModel *m_seedModel = nullptr;
    QTableView *m_seedView = nullptr;
    QLabel *m_seedTitle = nullptr;
    RankedTableModel *m_rankedModel = nullptr;
    QTableView *m_rankedView = nullptr;
    QTabWidget *m_resultTabs = nullptr;
    QPlainTextEdit *m_contextEdit = nullptr;
    QLabel *m_contextSize = nullptr;
    LayeredContextView *m_layeredView = nullptr;
    GraphCanvas *m_canvas = nullptr;
    QLabel *m_graphSummary = nullptr;
    NodeInspector *m_inspector = nullptr;
};

} // namespace MemoryGraph::Ui
