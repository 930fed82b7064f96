#include "ui/pages/recallpage.h"

#include "service/api/contextresult.h"
#include "service/core/ids.h"
#include "service/memoryservice.h"
#include "ui/models/rankedtablemodel.h"
#include "ui/models/seedtablemodel.h"
#include "ui/widgets/detailpane.h"
#include "ui/widgets/graphcanvas.h"
#include "ui/widgets/graphlegend.h"
#include "ui/widgets/layeredcontextview.h"
#include "ui/widgets/nodeinspector.h"
#include "ui/widgets/recordtable.h"
#include "ui/widgets/scopepicker.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFontDatabase>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTextBlock>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWidgetAction>

namespace MemoryGraph::Ui {

namespace {

const QString Endpoint = QStringLiteral("recall_text");
constexpr int MaxTokenBudget = 1000000;
constexpr int MaxCharBudget = 4000000;

/// A facade call's result as the page shows it, with how long the call took.
template<typename Value> struct TimedOutcome
{
    std::optional<Value> value;
    Error error;
    qint64 elapsedMs = 0;
};

/// Runs call (returning Result<Value>) on the worker thread and times it.
template<typename Value, typename Call> TimedOutcome<Value> timed(Call call)
{
    QElapsedTimer timer;
    timer.start();
    TimedOutcome<Value> out;
    auto result = call();
    if (result)
        out.value = std::move(result).value();
    else
        out.error = result.error();
    out.elapsedMs = timer.elapsed();
    return out;
}

/// Integers with the locale's group separator, even in the C locale ("1,234").
QString grouped(qint64 value)
{
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale.toString(value);
}

int textWidth(const QWidget *widget, const QString &sample)
{
    return widget->fontMetrics().horizontalAdvance(sample) + 24;
}

/// Lets a stage create a field with its buddy label and another stage place the pair.
QLabel *labelFor(const QWidget *frame, const QWidget *field)
{
    const QList<QLabel *> labels = frame->findChildren<QLabel *>(Qt::FindDirectChildrenOnly);
    for (QLabel *label : labels) {
        if (label->buddy() == field)
            return label;
    }
    return nullptr;
}

/// Ranked entries carry ids only; name them from everything the recall returned.
QHash<QString, RankedTableModel::NodeInfo> rankedNodeInfo(const RecallOutcome &o)
{
    QHash<QString, RankedTableModel::NodeInfo> info;
    for (const QJsonValue &v : o.context.items) {
        const QJsonObject item = v.toObject();
        const QString title = item.value(QStringLiteral("title")).toString();
        info.insert(item.value(QStringLiteral("node_id")).toString(),
                    {title.isEmpty() ? item.value(QStringLiteral("summary")).toString() : title,
                     item.value(QStringLiteral("kind")).toString()});
    }
    for (const NodeRecord &n : o.nodes)
        info.insert(n.id, {n.title.isEmpty() ? n.textSummary : n.title, n.type});
    for (const RecallSeed &s : o.seeds)
        info.insert(s.node.id,
                    {s.node.title.isEmpty() ? s.node.textSummary : s.node.title, s.node.type});
    return info;
}

} // namespace

RecallPage::RecallPage(MemoryService *service, UiExecutor *executor, QWidget *parent)
    : PageSkeleton(service, executor, FollowCommits, parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(createQueryBar());
    layout->addWidget(createOptions());

    QLabel *status = statusLine();
    status->setWordWrap(true);
    layout->addWidget(status);
    layout->addWidget(createResults(), 1);

    auto *runAction = new QAction(tr("Run recall"), this);
    runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    runAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(runAction, &QAction::triggered, this, &RecallPage::run);
    addAction(runAction);
    auto *focusQuery = new QAction(tr("Edit query"), this);
    focusQuery->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    focusQuery->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(focusQuery, &QAction::triggered, this, [this]() {
        m_queryEdit->setFocus(Qt::ShortcutFocusReason);
        m_queryEdit->selectAll();
    });
    addAction(focusQuery);

    // Options first (created in that order), then the results left to right.
    QWidget *previous = m_resetButton;
    for (QWidget *w : std::initializer_list<QWidget *>{m_seedView, m_resultTabs, m_contextEdit,
                                                       m_rankedView, m_canvas, m_inspector}) {
        setTabOrder(previous, w);
        previous = w;
    }

    setFocusProxy(m_queryEdit);
    applyProfile();
    clearResults();
    setStatus(tr("Type a query and press Enter. The embedding provider is "
                 "“%1”.")
                  .arg(service->embeddingProviderName()));
}

// --- construction ----------------------------------------------------------------------------

QWidget *RecallPage::createQueryBar()
{
    auto *bar = new QWidget(this);
    scopePicker()->setObjectName(QStringLiteral("recallScopePicker"));
    QHBoxLayout *layout = createScopeBar(bar, tr("Reload the scope list (%1)"));

    m_queryEdit = new QLineEdit(bar);
    m_queryEdit->setObjectName(QStringLiteral("queryEdit"));
    m_queryEdit->setPlaceholderText(tr("What should the agent remember? e.g. “sync stalls after "
                                       "the update”"));
    m_queryEdit->setClearButtonEnabled(true);
    connect(m_queryEdit, &QLineEdit::returnPressed, this, &RecallPage::run);
    auto *queryLabel = new QLabel(tr("&Query:"), bar);
    queryLabel->setBuddy(m_queryEdit);

    m_runButton = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"), bar);
    m_runButton->setObjectName(QStringLiteral("runButton"));
    m_runButton->setToolTip(
        tr("Run recall_text with these settings (Enter in the query, or Ctrl+Enter)"));
    connect(m_runButton, &QPushButton::clicked, this, &RecallPage::run);

    m_assembleButton = new QPushButton(tr("&Assemble"), bar);
    m_assembleButton->setObjectName(QStringLiteral("assembleButton"));
    m_assembleButton->setToolTip(
        tr("Run context/assemble with these settings: recall, rules and the "
           "layered context an agent would get"));
    connect(m_assembleButton, &QPushButton::clicked, this, &RecallPage::assemble);

    m_busyBar = new QProgressBar(bar);
    m_busyBar->setObjectName(QStringLiteral("recallBusy"));
    m_busyBar->setRange(0, 0); // indeterminate
    m_busyBar->setTextVisible(false);
    m_busyBar->setFixedWidth(90);
    m_busyBar->setMaximumHeight(m_runButton->sizeHint().height() / 2);
    m_busyBar->setToolTip(tr("Recall running"));
    // Keep the space when hidden, so the bar never shifts the query field.
    QSizePolicy keep = m_busyBar->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    m_busyBar->setSizePolicy(keep);
    m_busyBar->hide();

    m_optionsButton = new QToolButton(bar);
    m_optionsButton->setObjectName(QStringLiteral("optionsButton"));
    m_optionsButton->setText(tr("Opt&ions"));
    m_optionsButton->setCheckable(true);
    m_optionsButton->setChecked(true);
    m_optionsButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_optionsButton->setArrowType(Qt::DownArrow);
    m_optionsButton->setToolTip(tr("Show or hide the recall knobs, budgets and consumer"));
    connect(m_optionsButton, &QToolButton::toggled, this, [this](bool on) {
        m_optionsFrame->setVisible(on);
        m_optionsButton->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    });

    layout->addWidget(queryLabel);
    layout->addWidget(m_queryEdit, 1);
    layout->addWidget(m_runButton);
    layout->addWidget(m_assembleButton);
    layout->addWidget(m_busyBar);
    layout->addWidget(m_optionsButton);
    return bar;
}

QSpinBox *RecallPage::addIntKnob(const QString &key, const QString &label, int min, int max,
                                 const QString &tip)
{
    auto *spin = new QSpinBox(m_optionsFrame);
    spin->setRange(min, max);
    spin->setAccelerated(true);
    const int index = registerKnob(key, label, tip, spin);
    connect(spin, &QSpinBox::valueChanged, this, [this, index]() { onKnobEdited(index); });
    return spin;
}

QDoubleSpinBox *RecallPage::addDoubleKnob(const QString &key, const QString &label,
                                          const QString &tip)
{
    auto *spin = new QDoubleSpinBox(m_optionsFrame);
    spin->setRange(0.0, 1.0);
    spin->setSingleStep(0.05);
    spin->setDecimals(2);
    const int index = registerKnob(key, label, tip, spin);
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, index]() { onKnobEdited(index); });
    return spin;
}

int RecallPage::registerKnob(const QString &key, const QString &label, const QString &tip,
                             QAbstractSpinBox *box)
{
    box->setObjectName(key + QStringLiteral("Spin"));
    box->setToolTip(tip);
    box->installEventFilter(this); // Enter runs
    Knob knob;
    knob.key = key;
    knob.box = box;
    knob.label = new QLabel(label, m_optionsFrame);
    knob.label->setBuddy(box);
    m_knobs.append(knob);
    return int(m_knobs.size()) - 1;
}

QSpinBox *RecallPage::createBudgetSpin(const QString &objectName, int max, int step,
                                       const QString &tip)
{
    auto *spin = new QSpinBox(m_optionsFrame);
    spin->setObjectName(objectName);
    spin->setRange(0, max);
    spin->setSingleStep(step);
    spin->setSpecialValueText(tr("none")); // 0: the budget is not sent
    spin->setAccelerated(true);
    spin->setToolTip(tip);
    spin->installEventFilter(this); // Enter runs
    return spin;
}

QWidget *RecallPage::createOptions()
{
    m_optionsFrame = new QFrame(this);
    m_optionsFrame->setObjectName(QStringLiteral("recallOptions"));
    m_optionsFrame->setFrameShape(QFrame::StyledPanel);

    createProfileCombo();
    createKnobSpins();
    createBudgetFields();
    createConsumerFields();
    createKnobHintRow();
    sizeOptionFields();
    layoutOptions();
    setOptionsTabOrder();
    return m_optionsFrame;
}

/// The profile combo: a named profile fills the knobs with its defaults.
void RecallPage::createProfileCombo()
{
    m_profileCombo = new QComboBox(m_optionsFrame);
    m_profileCombo->setObjectName(QStringLiteral("profileCombo"));
    m_profileCombo->addItem(tr("Server default (%1)").arg(service()->config().recallProfile),
                            QString());
    for (const QString &name : {QStringLiteral("strict_edges"), QStringLiteral("quality_first"),
                                QStringLiteral("legacy")})
        m_profileCombo->addItem(name, name);
    m_profileCombo->setToolTip(tr("Fills the knobs with a recall profile's defaults (spec §4.3.1). "
                                  "Server default sends no knobs, so the server's profile policy "
                                  "applies; a named profile is sent as its seven knob values."));
    connect(m_profileCombo, &QComboBox::currentIndexChanged, this, &RecallPage::applyProfile);
    auto *profileLabel = new QLabel(tr("Pro&file:"), m_optionsFrame);
    profileLabel->setBuddy(m_profileCombo);
}

/// The seven recall knobs, in wire order (m_knobs keeps that order for layout and tab order).
void RecallPage::createKnobSpins()
{
    addIntKnob(QStringLiteral("limit"), tr("&Limit:"), 1, 200,
               tr("Seeds to find by vector similarity (1–200)"));
    addIntKnob(QStringLiteral("neighborhood_hops"), tr("H&ops:"), 1, 2,
               tr("Neighbourhood hops around the seeds (1 or 2)"));
    addIntKnob(QStringLiteral("max_nodes"), tr("Max &nodes:"), 1, 200,
               tr("Nodes in the returned subgraph (1–200)"));
    addIntKnob(QStringLiteral("max_edges"), tr("Max &edges:"), 0, 100,
               tr("Edges in the returned subgraph (0–100)"));
    addIntKnob(QStringLiteral("ranked_limit"), tr("&Ranked limit:"), 1, 500,
               tr("Entries in the ranked list (1–500)"));
    addDoubleKnob(QStringLiteral("min_edge_weight"), tr("Min edge &weight:"),
                  tr("Edges below this weight are not followed (0–1)"));
    addDoubleKnob(QStringLiteral("min_edge_confidence"), tr("Min edge confi&dence:"),
                  tr("Edges below this confidence are not followed (0–1)"));
}

/// Context budgets and the compaction profile: how the context text is cut down.
void RecallPage::createBudgetFields()
{
    m_tokenBudgetSpin
        = createBudgetSpin(QStringLiteral("tokenBudgetSpin"), MaxTokenBudget, 100,
                           tr("context_token_budget: compacts the context text towards this many "
                              "(estimated) tokens; items and citations stay whole. 0 = not sent."));
    auto *tokenLabel = new QLabel(tr("&Token budget:"), m_optionsFrame);
    tokenLabel->setBuddy(m_tokenBudgetSpin);

    m_charBudgetSpin
        = createBudgetSpin(QStringLiteral("charBudgetSpin"), MaxCharBudget, 500,
                           tr("context_char_budget: a direct character budget; wins over the "
                              "token budget. 0 = not sent."));
    auto *charLabel = new QLabel(tr("&Char budget:"), m_optionsFrame);
    charLabel->setBuddy(m_charBudgetSpin);

    m_compactionCombo = new QComboBox(m_optionsFrame);
    m_compactionCombo->setObjectName(QStringLiteral("compactionCombo"));
    m_compactionCombo->addItem(QStringLiteral("balanced"), QStringLiteral("balanced"));
    m_compactionCombo->addItem(QStringLiteral("aggressive"), QStringLiteral("aggressive"));
    m_compactionCombo->setToolTip(
        tr("context_compaction_profile: balanced keeps richer rule and event "
           "detail; aggressive trims event fanout and rule JSON earlier"));
    auto *compactionLabel = new QLabel(tr("Com&paction:"), m_optionsFrame);
    compactionLabel->setBuddy(m_compactionCombo);
}

/// Consumer agent and team: whose private nodes the recall may see.
void RecallPage::createConsumerFields()
{
    const ServiceConfig &config = service()->config();
    m_agentEdit = new QLineEdit(m_optionsFrame);
    m_agentEdit->setObjectName(QStringLiteral("consumerAgentEdit"));
    m_agentEdit->setPlaceholderText(config.authMode == AuthMode::Off
                                        ? tr("%1 (local)").arg(config.localAgentId)
                                        : tr("none: shared only"));
    m_agentEdit->setToolTip(tr("consumer_agent_id: private nodes are visible to their owner only"));
    m_agentEdit->installEventFilter(this);
    auto *agentLabel = new QLabel(tr("Consumer &agent:"), m_optionsFrame);
    agentLabel->setBuddy(m_agentEdit);

    m_teamEdit = new QLineEdit(m_optionsFrame);
    m_teamEdit->setObjectName(QStringLiteral("consumerTeamEdit"));
    m_teamEdit->setPlaceholderText(tr("none"));
    m_teamEdit->setToolTip(tr("consumer_team_id: also shows the team's private nodes"));
    m_teamEdit->installEventFilter(this);
    auto *teamLabel = new QLabel(tr("Consumer tea&m:"), m_optionsFrame);
    teamLabel->setBuddy(m_teamEdit);
}

/// The reset button and the hint saying which knobs are pinned.
void RecallPage::createKnobHintRow()
{
    m_resetButton = new QToolButton(m_optionsFrame);
    m_resetButton->setObjectName(QStringLiteral("resetKnobsButton"));
    m_resetButton->setText(tr("Reset &knobs"));
    m_resetButton->setToolTip(tr("Back to the profile's values; edited knobs are no longer sent"));
    connect(m_resetButton, &QToolButton::clicked, this, &RecallPage::resetKnobs);

    m_knobHint = new QLabel(m_optionsFrame);
    m_knobHint->setObjectName(QStringLiteral("knobHint"));
    m_knobHint->setWordWrap(true);
    m_knobHint->setEnabled(false); // greyed: an explanation, not a value
}

/// Number fields wide enough for their largest value, so the grid does not jump while typing.
void RecallPage::sizeOptionFields()
{
    const int spinWidth = textWidth(this, QStringLiteral("4,000,000")) + 16;
    for (const Knob &knob : std::as_const(m_knobs))
        knob.box->setMinimumWidth(textWidth(this, QStringLiteral("0000")) + 20);
    m_tokenBudgetSpin->setMinimumWidth(spinWidth);
    m_charBudgetSpin->setMinimumWidth(spinWidth);
}

/// Four label/field pairs per row, the hint row underneath.
void RecallPage::layoutOptions()
{
    auto *grid = new QGridLayout(m_optionsFrame);
    grid->setContentsMargins(8, 6, 8, 6);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(4);
    auto place = [this, grid](int row, int pair, QWidget *field) {
        QLabel *label = labelFor(m_optionsFrame, field);
        label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        grid->addWidget(label, row, pair * 2);
        // Number fields keep their natural width instead of stretching with the column.
        const bool number = qobject_cast<QAbstractSpinBox *>(field) != nullptr;
        grid->addWidget(field, row, pair * 2 + 1, number ? Qt::AlignLeft : Qt::Alignment());
    };
    place(0, 0, m_profileCombo);
    // The knobs fill the next seven slots, four pairs to a row.
    for (int i = 0; i < int(m_knobs.size()); ++i)
        place((i + 1) / 4, (i + 1) % 4, m_knobs.at(i).box);
    place(2, 0, m_tokenBudgetSpin);
    place(2, 1, m_charBudgetSpin);
    place(2, 2, m_compactionCombo);
    place(2, 3, m_agentEdit);
    place(3, 3, m_teamEdit);
    auto *hintRow = new QHBoxLayout;
    hintRow->setContentsMargins(0, 0, 0, 0);
    hintRow->addWidget(m_resetButton);
    hintRow->addWidget(m_knobHint, 1);
    grid->addLayout(hintRow, 3, 0, 1, 6);
    grid->setColumnStretch(8, 1);
}

/// Tab walks the options row by row, after the options button.
void RecallPage::setOptionsTabOrder()
{
    QList<QWidget *> order{m_profileCombo};
    for (const Knob &knob : std::as_const(m_knobs))
        order << knob.box;
    order << m_tokenBudgetSpin << m_charBudgetSpin << m_compactionCombo << m_agentEdit << m_teamEdit
          << m_resetButton;
    QWidget *previous = m_optionsButton;
    for (QWidget *w : std::as_const(order)) {
        QWidget::setTabOrder(previous, w);
        previous = w;
    }
}

QTableView *RecallPage::createTable(QAbstractItemModel *model, const QString &objectName)
{
    QTableView *view = createRecordTable(model, objectName, this);
    connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, view](const QModelIndex &current) { onTableRowChanged(view, current); });

    auto *showInGraph = new QAction(tr("Show in &Graph"), view);
    showInGraph->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    showInGraph->setShortcutContext(Qt::WidgetShortcut);
    connect(showInGraph, &QAction::triggered, this, [this, view]() { showCurrentInGraph(view); });
    view->addAction(showInGraph);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    return view;
}

QWidget *RecallPage::createSeedsPanel()
{
    auto *box = new QWidget(this);
    m_seedTitle = sectionLabel(tr("Seeds"), box);

    m_seedModel = new SeedTableModel(this);
    m_seedView = createTable(m_seedModel, QStringLiteral("seedTable"));
    using Column = SeedTableModel::Column;
    // The title takes what the fixed columns leave, so the similarity is never scrolled away.
    m_seedView->horizontalHeader()->setSectionResizeMode(int(Column::Title), QHeaderView::Stretch);
    // Seeds are only ever of the seed types and hot or warm: size to the longest of those.
    sizeColumnTo(m_seedView, int(Column::Type), QStringLiteral("MMconcept")); // MM: the type icon
    sizeColumnTo(m_seedView, int(Column::Tier), QStringLiteral("warm"));
    sizeColumnTo(m_seedView, int(Column::Similarity), QStringLiteral("Similarity"));
    sizeColumnTo(m_seedView, int(Column::FoundBy), QStringLiteral("vec+word+sense"));

    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_seedTitle);
    layout->addWidget(m_seedView, 1);
    return box;
}

QWidget *RecallPage::createContextPanel()
{
    m_resultTabs = new QTabWidget(this);
    m_resultTabs->setObjectName(QStringLiteral("recallTabs"));

    auto *contextPage = new QWidget(m_resultTabs);
    m_contextEdit = new QPlainTextEdit(contextPage);
    m_contextEdit->setObjectName(QStringLiteral("contextEdit"));
    m_contextEdit->setReadOnly(true);
    m_contextEdit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_contextEdit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_contextEdit->setToolTip(tr("The prompt-ready context. Click a line that names a node "
                                 "(node:\u2026) to inspect that node."));
    m_contextEdit->viewport()->installEventFilter(this);
    m_contextSize = new QLabel(contextPage);
    m_contextSize->setObjectName(QStringLiteral("contextSizeLabel"));
    m_contextSize->setWordWrap(true);
    auto *contextLayout = new QVBoxLayout(contextPage);
    contextLayout->setContentsMargins(4, 4, 4, 4);
    contextLayout->addWidget(m_contextEdit, 1);
    contextLayout->addWidget(m_contextSize);

    m_rankedModel = new RankedTableModel(this);
    m_rankedView = createTable(m_rankedModel, QStringLiteral("rankedTable"));
    using Column = RankedTableModel::Column;
    sizeColumnTo(m_rankedView, int(Column::Rank), QStringLiteral("000"));
    m_rankedView->horizontalHeader()->setSectionResizeMode(int(Column::Title),
                                                           QHeaderView::Stretch);
    sizeColumnTo(m_rankedView, int(Column::Activation), QStringLiteral("Activation"));
    sizeColumnTo(m_rankedView, int(Column::Score), QStringLiteral("Activation"));

    m_resultTabs->addTab(contextPage, tr("Context"));
    m_resultTabs->addTab(m_rankedView, tr("Ranked"));
    m_layeredView = new LayeredContextView(m_resultTabs);
    m_layeredView->setObjectName(QStringLiteral("layeredContextView"));
    m_resultTabs->addTab(m_layeredView, tr("Layered"));
    return m_resultTabs;
}

QWidget *RecallPage::createResults()
{
    auto *left = new QSplitter(Qt::Vertical, this);
    left->setChildrenCollapsible(false);
    left->addWidget(createSeedsPanel());
    left->addWidget(createContextPanel());
    left->setStretchFactor(0, 2);
    left->setStretchFactor(1, 3);

    auto *graphBox = new QGroupBox(tr("Subgraph"), this);
    m_canvas = new GraphCanvas(executor(), graphBox);
    m_canvas->setObjectName(QStringLiteral("recallCanvas"));
    m_canvas->setPlaceholderText(tr("The recalled subgraph appears here. Seeds are drawn larger."));
    connect(m_canvas, &GraphCanvas::nodeSelected, this, [this](const QString &id) {
        if (!m_syncing)
            inspectNode(id);
    });
    connect(m_canvas, &GraphCanvas::nodeActivated, this, [this](const QString &id) {
        Q_EMIT showInGraphRequested(m_resultTenant, m_resultScope, id);
    });
    m_graphSummary = new QLabel(graphBox);
    m_graphSummary->setObjectName(QStringLiteral("subgraphSummary"));
    m_graphSummary->setWordWrap(true);

    auto *legendButton = new QToolButton(graphBox);
    legendButton->setText(tr("Legend"));
    legendButton->setPopupMode(QToolButton::InstantPopup);
    legendButton->setAutoRaise(true);
    auto *legendMenu = new QMenu(legendButton);
    auto *legendAction = new QWidgetAction(legendMenu);
    auto *legend = new GraphLegend(legendMenu, 2);
    legend->setContentsMargins(10, 8, 10, 8);
    legendAction->setDefaultWidget(legend);
    legendMenu->addAction(legendAction);
    legendButton->setMenu(legendMenu);
    auto *fitButton = new QToolButton(graphBox);
    fitButton->setText(tr("Fit"));
    fitButton->setAutoRaise(true);
    fitButton->setToolTip(tr("Fit the whole subgraph in view (0 on the canvas)"));
    connect(fitButton, &QToolButton::clicked, m_canvas, &GraphCanvas::fitToView);

    auto *graphBottom = new QHBoxLayout;
    graphBottom->addWidget(m_graphSummary, 1);
    graphBottom->addWidget(legendButton);
    graphBottom->addWidget(fitButton);
    auto *graphLayout = new QVBoxLayout(graphBox);
    graphLayout->addWidget(m_canvas, 1);
    graphLayout->addLayout(graphBottom);

    auto *inspectorBox = new QGroupBox(tr("Node"), this);
    m_inspector = new NodeInspector(inspectorBox);
    m_inspector->setObjectName(QStringLiteral("recallInspector"));
    m_inspector->setShowInGraphVisible(true);
    m_inspector->setMinimumWidth(280);
    connect(m_inspector, &NodeInspector::nodeActivated, this, &RecallPage::inspectNode);
    connect(m_inspector, &NodeInspector::showInGraphRequested, this, [this](const QString &id) {
        Q_EMIT showInGraphRequested(m_resultTenant, m_resultScope, id);
    });
    auto *inspectorLayout = new QVBoxLayout(inspectorBox);
    inspectorLayout->addWidget(m_inspector);

    auto *columns = new QSplitter(Qt::Horizontal, this);
    columns->setObjectName(QStringLiteral("recallSplitter"));
    columns->setChildrenCollapsible(false);
    columns->addWidget(left);
    columns->addWidget(graphBox);
    columns->addWidget(inspectorBox);
    columns->setStretchFactor(0, 3);
    columns->setStretchFactor(1, 3);
    columns->setStretchFactor(2, 2);
    columns->setSizes({390, 420, 300}); // tuned for a 1280-pixel-wide window
    return columns;
}

// --- knobs -----------------------------------------------------------------------------------

QString RecallPage::profile() const
{
    return m_profileCombo->currentData().toString();
}

void RecallPage::setProfile(const QString &name)
{
    const int index = m_profileCombo->findData(name);
    if (index < 0)
        return;
    if (index == m_profileCombo->currentIndex())
        applyProfile(); // same profile again: still reset its values
    else
        m_profileCombo->setCurrentIndex(index);
}

void RecallPage::resetKnobs()
{
    applyProfile();
}

void RecallPage::applyProfile()
{
    // A named profile can only be asked for by sending its values; the server default sends none.
    const bool named = !profile().isEmpty();
    for (Knob &knob : m_knobs)
        knob.pinned = named;
    fillKnobs(false);
}

void RecallPage::fillKnobs(bool onlyUnpinned)
{
    RecallKnobs values;
    if (const auto named = recallProfileKnobs(profile())) {
        values = *named;
    } else {
        // What the server would use for this tenant with no knob pinned (policy layers included).
        values = resolveRecallKnobs(RecallRequest{}, currentTenant(), Endpoint, service()->config(),
                                    0.0)
                     .knobs;
    }
    const QVector<double> numbers{double(values.limit),       double(values.hops),
                                  double(values.maxNodes),    double(values.maxEdges),
                                  double(values.rankedLimit), values.minEdgeWeight,
                                  values.minEdgeConfidence};
    for (int i = 0; i < m_knobs.size(); ++i) {
        Knob &knob = m_knobs[i];
        if (onlyUnpinned && knob.pinned)
            continue;
        const QSignalBlocker blocker(knob.box);
        if (auto *spin = qobject_cast<QSpinBox *>(knob.box))
            spin->setValue(int(numbers.at(i)));
        else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(knob.box))
            dspin->setValue(numbers.at(i));
    }
    updateKnobHint();
}

void RecallPage::onKnobEdited(int index)
{
    m_knobs[index].pinned = true;
    updateKnobHint();
}

QStringList RecallPage::pinnedKnobs() const
{
    QStringList keys;
    for (const Knob &knob : m_knobs) {
        if (knob.pinned)
            keys << knob.key;
    }
    return keys;
}

void RecallPage::updateKnobHint()
{
    const QStringList pinned = pinnedKnobs();
    for (const Knob &knob : m_knobs) {
        QFont font = knob.label->font();
        font.setBold(knob.pinned);
        knob.label->setFont(font);
    }
    const ResolvedKnobs server
        = resolveRecallKnobs(RecallRequest{}, currentTenant(), Endpoint, service()->config(), 0.0);
    if (pinned.isEmpty()) {
        m_knobHint->setText(tr("No knobs sent: the server's profile policy applies (%1, from %2).")
                                .arg(server.profile, server.profileSource));
    } else if (pinned.size() == m_knobs.size()) {
        m_knobHint->setText(
            profile().isEmpty()
                ? tr("All seven knobs are sent (bold).")
                : tr("All seven knobs are sent: %1 values, plus your edits.").arg(profile()));
    } else {
        m_knobHint->setText(tr("Sent (bold): %1. The rest follow the server's profile (%2).")
                                .arg(pinned.join(QStringLiteral(", ")), server.profile));
    }
}

QJsonObject RecallPage::requestBody() const
{
    QJsonObject body{{QStringLiteral("query_text"), m_queryEdit->text().trimmed()}};
    if (hasScope()) {
        body.insert(QStringLiteral("tenant_id"), currentTenant());
        body.insert(QStringLiteral("scope"), currentScope());
    }
    for (const Knob &knob : m_knobs) {
        if (!knob.pinned)
            continue;
        if (auto *spin = qobject_cast<QSpinBox *>(knob.box))
            body.insert(knob.key, spin->value());
        else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(knob.box))
            body.insert(knob.key, dspin->value());
    }
    if (m_tokenBudgetSpin->value() > 0)
        body.insert(QStringLiteral("context_token_budget"), m_tokenBudgetSpin->value());
    if (m_charBudgetSpin->value() > 0)
        body.insert(QStringLiteral("context_char_budget"), m_charBudgetSpin->value());
    const QString compaction = m_compactionCombo->currentData().toString();
    if (compaction != QLatin1String("balanced"))
        body.insert(QStringLiteral("context_compaction_profile"), compaction);
    const QString agent = m_agentEdit->text().trimmed();
    if (!agent.isEmpty())
        body.insert(QStringLiteral("consumer_agent_id"), agent);
    const QString team = m_teamEdit->text().trimmed();
    if (!team.isEmpty())
        body.insert(QStringLiteral("consumer_team_id"), team);
    return body;
}

// --- running ---------------------------------------------------------------------------------

void RecallPage::setQueryText(const QString &text)
{
    m_queryEdit->setText(text);
}

void RecallPage::onScopeChanged()
{
    fillKnobs(true);
}

void RecallPage::run()
{
    startQuery<RecallOutcome>(
        tr("Running recall_text\u2026"),
        [](MemoryService *service, const QJsonObject &body, int maxTextLength,
           const RequestMeta &meta) -> Result<RecallOutcome> {
            // Parsed exactly like an HTTP body, so the UI cannot send what an agent could not.
            const auto request = RecallRequest::fromJson(body, true, maxTextLength);
            if (!request)
                return request.error();
            return service->recallText(request.value(), meta);
        },
        [this](const RecallOutcome &outcome, qint64 elapsedMs) {
            applyOutcome(outcome, elapsedMs);
        },
        &RecallPage::recallFinished);
}

void RecallPage::assemble()
{
    startQuery<AssembleOutcome>(
        tr("Running context/assemble\u2026"),
        [](MemoryService *service, const QJsonObject &body, int maxTextLength,
           const RequestMeta &meta) -> Result<AssembleOutcome> {
            // The recall_text body is a valid assemble body: same query, knobs and consumer.
            const auto request = AssembleRequest::fromJson(body, maxTextLength);
            if (!request)
                return request.error();
            return service->assembleContext(request.value(), meta);
        },
        [this](const AssembleOutcome &outcome, qint64 elapsedMs) {
            applyOutcome(outcome.recall, elapsedMs);
            if (outcome.layered) {
                m_layeredView->setResult(*outcome.layered, outcome.tools
                                                               ? outcome.tools->selection.selected
                                                               : QString());
                m_resultTabs->setCurrentWidget(m_layeredView);
            }
        },
        &RecallPage::assembleFinished);
}

template<typename Value, typename Call, typename Show>
void RecallPage::startQuery(const QString &runningText, Call call, Show show,
                            void (RecallPage::*finished)(bool))
{
    const QJsonObject body = requestBody();
    const auto started = beginQuery(body, runningText);
    if (!started)
        return;
    const int maxTextLength = service()->config().maxTextLength;
    callService(
        [body, maxTextLength, call](MemoryService *service) {
            return timed<Value>([&]() {
                RequestMeta meta;
                meta.requestId = randomUuid();
                return call(service, body, maxTextLength, meta);
            });
        },
        [this, generation = *started, show, finished](const TimedOutcome<Value> &out) {
            if (generation != m_runGeneration)
                return; // a newer run is under way
            setBusy(false);
            if (!out.value) {
                showError(out.error);
                Q_EMIT(this->*finished)(false);
                return;
            }
            show(*out.value, out.elapsedMs);
            Q_EMIT(this->*finished)(true);
        });
}

std::optional<quint64> RecallPage::beginQuery(const QJsonObject &body, const QString &runningText)
{
    if (body.value(QStringLiteral("query_text")).toString().isEmpty()) {
        setStatus(tr("Type a query first."));
        m_queryEdit->setFocus(Qt::OtherFocusReason);
        return std::nullopt;
    }
    setBusy(true);
    setStatus(runningText);
    return ++m_runGeneration;
}

void RecallPage::setBusy(bool busy)
{
    m_running = busy;
    m_busyBar->setVisible(busy);
    m_runButton->setText(busy ? tr("Running\u2026") : tr("Run"));
    m_assembleButton->setEnabled(!busy);
}

void RecallPage::clearResults()
{
    ++m_detailGeneration;
    m_inspectedId.clear();
    m_seedModel->clear();
    m_rankedModel->clear();
    m_seedTitle->setText(tr("Seeds"));
    m_resultTabs->setTabText(1, tr("Ranked"));
    m_contextEdit->clear();
    m_contextSize->setText(tr("No context yet."));
    m_layeredView->clear();
    m_canvas->clearGraph();
    m_graphSummary->setText(QString());
    m_inspector->showMessage(tr("Run a recall, then select a seed, a ranked entry or a node on the "
                                "subgraph to inspect it."));
}

void RecallPage::showError(const Error &error)
{
    clearResults();
    m_errorCode = error.code;
    QString text = tr("Recall failed (%1): %2").arg(error.code, error.message);
    const QJsonArray issues = error.details.value(QStringLiteral("issues")).toArray();
    QStringList lines;
    for (const QJsonValue &issue : issues) {
        const QJsonObject o = issue.toObject();
        lines << tr("%1: %2").arg(o.value(QStringLiteral("path")).toString(),
                                  o.value(QStringLiteral("message")).toString());
    }
    if (!lines.isEmpty())
        text += QStringLiteral(" \u2014 ") + lines.join(QStringLiteral("; "));
    if (error.code == QLatin1String("no_embedding_provider"))
        text += QLatin1Char(' ')
                + tr("Start the application with EMBEDDING_PROVIDER=local (offline) "
                     "or an OpenAI-compatible provider.");
    setStatus(text, true);
}

void RecallPage::applyOutcome(const RecallOutcome &o, qint64 elapsedMs)
{
    clearResults();
    m_errorCode.clear();
    m_resultTenant = o.tenantId;
    m_resultScope = o.scope;

    showSeedsAndRanked(o);
    showContextSize(o);
    showSubgraph(o);
    showRunStatus(o, elapsedMs);

    if (o.seeds.isEmpty()) {
        m_inspector->showMessage(
            tr("No seeds: nothing visible in this scope is similar enough to the "
               "query (only nodes with a ready embedding in the hot and warm "
               "tiers are searched)."));
    } else {
        m_seedView->selectRow(0); // the best match goes straight to the inspector
    }
}

/// The two result tables and their counts.
void RecallPage::showSeedsAndRanked(const RecallOutcome &o)
{
    m_seedModel->setSeeds(o.seeds);
    m_seedTitle->setText(tr("Seeds (%1)").arg(o.seeds.size()));
    m_rankedModel->setRanked(o.ranked, rankedNodeInfo(o));
    m_resultTabs->setTabText(1, tr("Ranked (%1)").arg(o.ranked.size()));
}

/// Context text and its size, plus what a budget cut from it.
void RecallPage::showContextSize(const RecallOutcome &o)
{
    m_contextEdit->setPlainText(o.context.text);
    const int chars = int(o.context.text.size());
    QString size = tr("%1 chars \u2248 %2 tokens")
                       .arg(grouped(chars))
                       .arg(grouped(estimateTokens(o.context.text)));
    const int items = int(o.context.items.size());
    const int citations = int(o.context.citations.size());
    size += QStringLiteral(" \u00b7 ") + (items == 1 ? tr("1 item") : tr("%1 items").arg(items));
    size += QStringLiteral(", ")
            + (citations == 1 ? tr("1 citation") : tr("%1 citations").arg(citations));
    size += compactionText(o.context.compaction);
    m_contextSize->setText(size);
}

/// "\nCompacted to …" or "\nWithin the … budget" when a budget applied, else nothing; sets the
/// per-section tooltip when lines were dropped.
QString RecallPage::compactionText(const QJsonObject &c)
{
    const int tokenBudget = c.value(QStringLiteral("token_budget")).toInt(0);
    const int charBudget = c.value(QStringLiteral("char_budget")).toInt(0);
    if (c.isEmpty() || (tokenBudget <= 0 && charBudget <= 0))
        return {};
    const QString budget = charBudget > 0 ? tr("%1-char budget").arg(grouped(charBudget))
                                          : tr("%1-token budget").arg(grouped(tokenBudget));
    const QString profileName = c.value(QStringLiteral("profile")).toString();
    if (!c.value(QStringLiteral("applied")).toBool())
        return QLatin1Char('\n')
               + tr("Within the %1 (%2): nothing dropped.").arg(budget, profileName);

    const int dropped = c.value(QStringLiteral("dropped_lines")).toInt();
    const QString droppedText
        = dropped == 1 ? tr("1 line dropped") : tr("%1 lines dropped").arg(dropped);
    QStringList sections;
    const QJsonObject bySection = c.value(QStringLiteral("dropped_by_section")).toObject();
    for (auto it = bySection.constBegin(); it != bySection.constEnd(); ++it)
        sections << tr("%1: %2").arg(it.key()).arg(it.value().toInt());
    m_contextSize->setToolTip(
        sections.isEmpty()
            ? QString()
            : tr("Dropped by section \u2014 %1").arg(sections.join(QStringLiteral(", "))));
    return QLatin1Char('\n')
           + tr("Compacted to a %1 (%2): %3 \u2192 %4 chars, %5.")
                 .arg(budget, profileName, grouped(c.value(QStringLiteral("before_chars")).toInt()),
                      grouped(c.value(QStringLiteral("after_chars")).toInt()), droppedText);
}

/// The subgraph, seeds drawn larger, with a summary that says when it was cut.
void RecallPage::showSubgraph(const RecallOutcome &o)
{
    QStringList seedIds;
    for (const RecallSeed &s : o.seeds)
        seedIds << s.node.id;
    m_canvas->setHighlightedNodes(seedIds);
    m_canvas->setGraph(o.nodes, o.edges, false);
    // The subgraph is the neighbourhood cut to max_nodes / max_edges; say when it was cut.
    const QString nodesText
        = o.neighborhoodNodes > o.nodes.size()
              ? tr("%1 of %2 nodes").arg(o.nodes.size()).arg(o.neighborhoodNodes)
              : tr("%1 nodes").arg(o.nodes.size());
    const QString edgesText
        = o.neighborhoodEdges > o.edges.size()
              ? tr("%1 of %2 edges").arg(o.edges.size()).arg(o.neighborhoodEdges)
              : tr("%1 edges").arg(o.edges.size());
    m_graphSummary->setText(tr("%1 \u00b7 %2").arg(nodesText, edgesText));
    m_graphSummary->setToolTip(tr("The neighbourhood of the seeds had %1 nodes and %2 edges; the "
                                  "subgraph keeps at most max_nodes and max_edges of them.")
                                   .arg(o.neighborhoodNodes)
                                   .arg(o.neighborhoodEdges));
}

/// The status line: counts, the profile that applied and timing; the knobs used as its tooltip.
void RecallPage::showRunStatus(const RecallOutcome &o, qint64 elapsedMs)
{
    const RecallKnobs &k = o.resolved.knobs;
    setStatus(tr("%1 seeds \u00b7 %2 ranked \u00b7 profile %3 (%4) \u00b7 embeddings: %5 \u00b7 %6 "
                 "/ %7 \u00b7 %8 ms")
                  .arg(o.seeds.size())
                  .arg(o.ranked.size())
                  .arg(o.resolved.profile, o.resolved.profileSource, o.embeddingProvider,
                       o.tenantId, o.scope)
                  .arg(elapsedMs));
    statusLine()->setToolTip(tr("Knobs used: limit %1, hops %2, max_nodes %3, max_edges %4, "
                                "ranked_limit %5, min_edge_weight %6, min_edge_confidence %7")
                                 .arg(k.limit)
                                 .arg(k.hops)
                                 .arg(k.maxNodes)
                                 .arg(k.maxEdges)
                                 .arg(k.rankedLimit)
                                 .arg(k.minEdgeWeight)
                                 .arg(k.minEdgeConfidence));
}

// --- selection -------------------------------------------------------------------------------

void RecallPage::onTableRowChanged(QTableView *view, const QModelIndex &current)
{
    if (m_syncing || !current.isValid())
        return;
    const int role
        = view == m_seedView ? int(SeedTableModel::NodeIdRole) : int(RankedTableModel::NodeIdRole);
    inspectNode(view->model()->data(current, role).toString());
}

void RecallPage::inspectNode(const QString &nodeId)
{
    if (nodeId.isEmpty() || m_resultTenant.isEmpty())
        return;
    if (nodeId != m_inspectedId) {
        m_inspectedId = nodeId;
        loadDetail(nodeId);
    }
    syncSelection(nodeId);
}

void RecallPage::syncSelection(const QString &nodeId)
{
    m_syncing = true;
    const auto select = [](QTableView *view, int row) {
        if (row >= 0) {
            view->selectRow(row);
            view->scrollTo(view->model()->index(row, 0));
        } else {
            view->selectionModel()->setCurrentIndex(QModelIndex(), QItemSelectionModel::Clear);
        }
    };
    select(m_seedView, m_seedModel->rowOf(nodeId));
    select(m_rankedView, m_rankedModel->rowOf(nodeId));
    m_canvas->selectNode(nodeId);
    m_syncing = false;
}

void RecallPage::loadDetail(const QString &nodeId)
{
    const QString tenant = m_resultTenant;
    const QString scope = m_resultScope;
    loadLatest(
        m_detailGeneration,
        [tenant, scope, nodeId](MemoryService *service) {
            return service->nodeDetail(tenant, scope, nodeId);
        },
        [this](const NodeDetail &detail) {
            QHash<QString, QString> titles = m_canvas->nodeTitles();
            for (int row = 0; row < m_rankedModel->rowCount(); ++row) {
                const QString id = m_rankedModel->entry(row).id;
                if (!titles.contains(id))
                    titles.insert(id, m_rankedModel->titleOf(id));
            }
            m_inspector->setNodeTitles(titles);
            m_inspector->showDetail(detail);
        },
        [this](const Error &error) { m_inspector->showLoadFailure(error); });
}

void RecallPage::showCurrentInGraph(QTableView *view)
{
    const QModelIndex current = view->selectionModel()->currentIndex();
    if (!current.isValid())
        return;
    const int role
        = view == m_seedView ? int(SeedTableModel::NodeIdRole) : int(RankedTableModel::NodeIdRole);
    Q_EMIT showInGraphRequested(m_resultTenant, m_resultScope,
                                view->model()->data(current, role).toString());
}

QString RecallPage::nodeIdAtContextPosition(const QPoint &viewportPos) const
{
    const QTextCursor cursor = m_contextEdit->cursorForPosition(viewportPos);
    const QString line = cursor.block().text();
    const int column = cursor.positionInBlock();
    static const QRegularExpression reference(QStringLiteral("node:([0-9A-Za-z_-]+)"));
    QString first;
    QRegularExpressionMatchIterator it = reference.globalMatch(line);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        if (first.isEmpty())
            first = match.captured(1);
        if (column >= match.capturedStart(0) && column <= match.capturedEnd(0))
            return match.captured(1);
    }
    return first; // a click anywhere on a line that names one node opens it
}

bool RecallPage::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::MouseButtonRelease && watched == m_contextEdit->viewport()) {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        if (mouse->button() == Qt::LeftButton && !m_contextEdit->textCursor().hasSelection()) {
            const QString id = nodeIdAtContextPosition(mouse->position().toPoint());
            if (!id.isEmpty())
                inspectNode(id);
        }
        return false;
    }
    if (event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            // Enter in any option field runs, with the typed value committed first.
            if (auto *spin = qobject_cast<QAbstractSpinBox *>(watched))
                spin->interpretText();
            run();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

QString RecallPage::contextText() const
{
    return m_contextEdit->toPlainText();
}

QString RecallPage::contextSizeText() const
{
    return m_contextSize->text();
}

} // namespace MemoryGraph::Ui
