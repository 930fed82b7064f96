#include "ui/pages/serverpage.h"

#include "ui/debounce.h"
#include "ui/models/requestlogmodel.h"
#include "ui/pages/mcpclientconfig.h"

#include <QClipboard>
#include <QCoreApplication>
#include <QGridLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

namespace {

constexpr int FlushIntervalMs = 100;

// The host refuses non-loopback binds while auth is off; say so before the operator tries.
bool isLoopbackAddress(const QString &address)
{
    const QString a = address.trimmed().toLower();
    return a == QLatin1String("localhost") || a == QLatin1String("::1")
           || a.startsWith(QLatin1String("127."));
}

} // namespace

QString ServerPage::stateColor(State state)
{
    switch (state) {
    case State::Running: return QStringLiteral("#2e9e4f");
    case State::Starting:
    case State::Stopping: return QStringLiteral("#d08a1a");
    case State::Failed: return QStringLiteral("#d94f4f");
    case State::Stopped: break;
    }
    return QStringLiteral("#8a8a8a");
}

ServerPage::ServerPage(QWidget *parent) : QWidget(parent)
{
    m_flushTimer = createDebounceTimer(this, FlushIntervalMs, [this]() { flushPendingRequests(); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(createListenerGroup());
    layout->addWidget(createLogGroup(), 1);

    setAuthMode(QStringLiteral("off"));
    setState(State::Stopped);
}

ServerPage::~ServerPage() = default;

QWidget *ServerPage::createListenerGroup()
{
    auto *group = new QGroupBox(tr("HTTP server"), this);

    m_addressEdit = new QLineEdit(QStringLiteral("127.0.0.1"), group);
    m_addressEdit->setObjectName(QStringLiteral("bindAddressEdit"));
    m_addressEdit->setToolTip(tr("Address the /v1 API listens on"));
    connect(m_addressEdit, &QLineEdit::textChanged, this, &ServerPage::updateLoopbackHint);
    connect(m_addressEdit, &QLineEdit::textChanged, this, &ServerPage::agentAddressChanged);

    m_portSpin = new QSpinBox(group);
    m_portSpin->setObjectName(QStringLiteral("portSpin"));
    m_portSpin->setRange(0, 65535);
    m_portSpin->setValue(8080);
    // Port 0 lets the system pick a free port; show that instead of a bare zero.
    m_portSpin->setSpecialValueText(tr("any free port"));
    connect(m_portSpin, &QSpinBox::valueChanged, this, &ServerPage::updateControls);
    connect(m_portSpin, &QSpinBox::valueChanged, this, &ServerPage::agentAddressChanged);

    m_startStopButton = new QPushButton(group);
    m_startStopButton->setObjectName(QStringLiteral("startStopButton"));
    m_startStopButton->setMinimumWidth(110);
    connect(m_startStopButton, &QPushButton::clicked, this, &ServerPage::toggleServer);

    m_authLabel = new QLabel(group);
    m_authLabel->setObjectName(QStringLiteral("authModeLabel"));
    m_stateDot = new QLabel(QStringLiteral("\u25cf"), group);
    m_stateLabel = new QLabel(group);
    m_stateLabel->setObjectName(QStringLiteral("stateLabel"));
    m_stateLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_urlLabel = new QLabel(group);
    m_urlLabel->setObjectName(QStringLiteral("baseUrlLabel"));
    m_urlLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_mcpLabel = new QLabel(group);
    m_mcpLabel->setObjectName(QStringLiteral("mcpEndpointLabel"));
    m_mcpLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_mcpLabel->setToolTip(tr("Model Context Protocol endpoint (Streamable HTTP) for agents"));
    m_mcpButton = new QToolButton(group);
    m_mcpButton->setObjectName(QStringLiteral("mcpConfigButton"));
    m_mcpButton->setText(tr("Copy client configuration"));
    m_mcpButton->setPopupMode(QToolButton::InstantPopup);
    m_mcpMenu = new QMenu(m_mcpButton);
    m_mcpMenu->setObjectName(QStringLiteral("mcpConfigMenu"));
    m_mcpButton->setMenu(m_mcpMenu);
    buildMcpMenu();
    m_hintLabel = new QLabel(group);
    m_hintLabel->setWordWrap(true);
    m_hintLabel->setStyleSheet(QStringLiteral("color: #d08a1a;"));

    auto *stateBox = new QHBoxLayout;
    stateBox->setSpacing(6);
    stateBox->addWidget(m_stateDot);
    stateBox->addWidget(m_stateLabel, 1);

    auto *grid = new QGridLayout(group);
    grid->setHorizontalSpacing(12);
    grid->addWidget(new QLabel(tr("Bind address:"), group), 0, 0);
    grid->addWidget(m_addressEdit, 0, 1);
    grid->addWidget(new QLabel(tr("Port:"), group), 0, 2);
    grid->addWidget(m_portSpin, 0, 3);
    grid->addWidget(m_startStopButton, 0, 5);
    grid->addWidget(new QLabel(tr("Auth mode:"), group), 1, 0);
    grid->addWidget(m_authLabel, 1, 1);
    grid->addWidget(new QLabel(tr("State:"), group), 1, 2);
    grid->addLayout(stateBox, 1, 3, 1, 3);
    grid->addWidget(new QLabel(tr("Base URL:"), group), 2, 0);
    grid->addWidget(m_urlLabel, 2, 1, 1, 5);
    grid->addWidget(new QLabel(tr("MCP endpoint:"), group), 3, 0);
    grid->addWidget(m_mcpLabel, 3, 1, 1, 3);
    grid->addWidget(m_mcpButton, 3, 4, 1, 2, Qt::AlignRight);
    grid->addWidget(m_hintLabel, 4, 0, 1, 6);
    grid->setColumnStretch(4, 1);
    m_addressEdit->setMinimumWidth(220);
    m_addressEdit->setMaximumWidth(320);
    m_portSpin->setMinimumWidth(130);
    return group;
}

QWidget *ServerPage::createLogGroup()
{
    auto *group = new QGroupBox(tr("Request log"), this);

    m_logModel = new RequestLogModel(RequestLogModel::DefaultMaxRows, this);
    m_logView = new QTableView(group);
    m_logView->setObjectName(QStringLiteral("requestLogView"));
    m_logView->setModel(m_logModel);
    m_logView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_logView->setAlternatingRowColors(true);
    m_logView->setWordWrap(false);
    m_logView->verticalHeader()->hide();
    m_logView->verticalHeader()->setDefaultSectionSize(m_logView->fontMetrics().height() + 8);
    m_logView->setEditTriggers(QAbstractItemView::NoEditTriggers);

    QHeaderView *header = m_logView->horizontalHeader();
    header->setHighlightSections(false);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(false);
    const QFontMetrics fm = m_logView->fontMetrics();
    using Column = RequestLogModel::Column;
    header->resizeSection(int(Column::Time),
                          fm.horizontalAdvance(QStringLiteral("00:00:00.000")) + 24);
    header->resizeSection(int(Column::Method), fm.horizontalAdvance(QStringLiteral("DELETE")) + 24);
    header->resizeSection(int(Column::Status), fm.horizontalAdvance(QStringLiteral("Status")) + 28);
    header->resizeSection(int(Column::Latency),
                          fm.horizontalAdvance(QStringLiteral("Latency (ms)")) + 28);
    header->resizeSection(int(Column::Tenant),
                          fm.horizontalAdvance(QStringLiteral("default-tenant")) + 20);
    header->resizeSection(
        int(Column::RequestId),
        fm.horizontalAdvance(QStringLiteral("00000000-0000-0000-0000-000000000000")) + 20);
    // The path is the most telling column; let it take the remaining width.
    header->setSectionResizeMode(int(Column::Path), QHeaderView::Stretch);

    m_logSummary = new QLabel(group);
    m_logSummary->setObjectName(QStringLiteral("logSummaryLabel"));
    auto *clearButton = new QPushButton(tr("Clear"), group);
    clearButton->setIcon(style()->standardIcon(QStyle::SP_DialogResetButton));
    connect(clearButton, &QPushButton::clicked, this, &ServerPage::clearRequestLog);

    auto *footer = new QHBoxLayout;
    footer->addWidget(m_logSummary, 1);
    footer->addWidget(clearButton);

    auto *layout = new QVBoxLayout(group);
    layout->addWidget(m_logView, 1);
    layout->addLayout(footer);
    updateLogSummary();
    return group;
}

QString ServerPage::bindAddress() const
{
    return m_addressEdit->text().trimmed();
}

quint16 ServerPage::port() const
{
    return quint16(m_portSpin->value());
}

QString ServerPage::stateSummary() const
{
    switch (m_state) {
    case State::Stopped: return tr("Server stopped");
    case State::Starting: return tr("Server starting\u2026");
    case State::Running: return tr("Listening on %1:%2").arg(bindAddress()).arg(port());
    case State::Stopping: return tr("Server stopping\u2026");
    case State::Failed: return tr("Server failed: %1").arg(m_stateDetail);
    }
    return {};
}

void ServerPage::setBindAddress(const QString &address)
{
    m_addressEdit->setText(address);
}

void ServerPage::setPort(quint16 port)
{
    m_portSpin->setValue(port);
}

void ServerPage::setDataDir(const QString &dataDir)
{
    m_dataDir = dataDir;
    Q_EMIT agentAddressChanged();
}

QString ServerPage::baseUrl() const
{
    const QString host = bindAddress().contains(QLatin1Char(':'))
                             ? QStringLiteral("[%1]").arg(bindAddress())
                             : bindAddress();
    return QStringLiteral("http://%1:%2").arg(host).arg(port());
}

QString ServerPage::mcpEndpoint() const
{
    const QString base = serviceUrl();
    return base.isEmpty() ? QString() : base + QStringLiteral("/mcp");
}

QString ServerPage::serviceUrl() const
{
    if (m_state != State::Running)
        return {};
    return baseUrl();
}

McpClientConfig::Target ServerPage::mcpTarget() const
{
    McpClientConfig::Target target;
    target.endpoint = baseUrl() + QStringLiteral("/mcp");
    target.program = QCoreApplication::applicationFilePath();
    target.port = port();
    target.dataDir = m_dataDir;
    target.needsKey = m_authMode.compare(QLatin1String("off"), Qt::CaseInsensitive) != 0;
    return target;
}

void ServerPage::buildMcpMenu()
{
    using namespace McpClientConfig;
    for (const Client client : clients()) {
        for (const Transport transport : {Transport::Stdio, Transport::Http}) {
            const QString label
                = transport == Transport::Stdio
                      ? tr("%1 (stdio, for %2)").arg(clientName(client), destination(client))
                      : tr("%1 (HTTP, for %2)").arg(clientName(client), destination(client));
            QAction *action = m_mcpMenu->addAction(label);
            connect(action, &QAction::triggered, this, [this, client, transport] {
                QGuiApplication::clipboard()->setText(text(client, transport, mcpTarget()));
            });
        }
    }
}

void ServerPage::setAuthMode(const QString &mode)
{
    m_authMode = mode;
    m_authLabel->setText(mode);
    updateLoopbackHint();
    Q_EMIT agentAddressChanged();
}

void ServerPage::onServerStarted(const QString &address, quint16 port)
{
    // Show what was actually bound (an ephemeral port request comes back as a real port).
    setBindAddress(address);
    setPort(port);
    setState(State::Running);
}

void ServerPage::onServerStopped()
{
    setState(State::Stopped);
}

void ServerPage::onServerFailed(const QString &reason)
{
    setState(State::Failed, reason);
}

void ServerPage::appendRequest(const RequestLogEntry &entry)
{
    m_pending.append(entry);
    if (!m_flushTimer->isActive())
        m_flushTimer->start();
}

void ServerPage::clearRequestLog()
{
    // Entries not shown yet were still served: they count, though the log drops them.
    if (!m_pending.isEmpty()) {
        m_requestsServed += m_pending.size();
        m_pending.clear();
        Q_EMIT requestsServedChanged(m_requestsServed);
    }
    m_logModel->clear();
    updateLogSummary();
}

void ServerPage::toggleServer()
{
    if (m_state == State::Running)
        stopServer();
    else
        startServer();
}

void ServerPage::startServer()
{
    if (m_state != State::Stopped && m_state != State::Failed)
        return;
    setState(State::Starting);
    Q_EMIT startRequested(bindAddress(), port());
}

void ServerPage::stopServer()
{
    if (m_state != State::Running)
        return;
    setState(State::Stopping);
    Q_EMIT stopRequested();
}

void ServerPage::setState(State state, const QString &detail)
{
    m_state = state;
    m_stateDetail = detail;
    m_stateDot->setStyleSheet(QStringLiteral("color: %1;").arg(stateColor(state)));
    m_stateLabel->setText(stateSummary());
    m_stateLabel->setToolTip(detail);
    updateControls();
    Q_EMIT stateChanged(stateSummary());
    Q_EMIT agentAddressChanged();
}

void ServerPage::updateControls()
{
    const bool idle = m_state == State::Stopped || m_state == State::Failed;
    const bool busy = m_state == State::Starting || m_state == State::Stopping;
    m_addressEdit->setEnabled(idle);
    m_portSpin->setEnabled(idle);
    m_startStopButton->setEnabled(!busy);
    // Plain text: the style's media icons are black and vanish on the dark palette.
    m_startStopButton->setText(m_state == State::Running ? tr("Stop") : tr("Start"));

    if (m_state == State::Running) {
        m_urlLabel->setText(baseUrl() + QStringLiteral("/v1"));
        m_mcpLabel->setText(mcpEndpoint());
    } else {
        m_urlLabel->setText(tr("not listening"));
        m_mcpLabel->setText(tr("not listening"));
    }
}

void ServerPage::updateLoopbackHint()
{
    const bool authOff = m_authMode.compare(QLatin1String("off"), Qt::CaseInsensitive) == 0;
    const bool warn = authOff && !isLoopbackAddress(bindAddress());
    m_hintLabel->setText(warn ? tr("Authentication is off, so the server only accepts a loopback "
                                   "address (127.0.0.1, ::1 or localhost).")
                              : QString());
    m_hintLabel->setVisible(warn);
}

void ServerPage::flushPendingRequests()
{
    if (m_pending.isEmpty())
        return;
    m_requestsServed += m_pending.size();
    m_logModel->append(m_pending);
    m_pending.clear();
    updateLogSummary();
    Q_EMIT requestsServedChanged(m_requestsServed);
}

void ServerPage::updateLogSummary()
{
    const qint64 total = m_logModel->totalAppended();
    if (total <= m_logModel->rowCount()) {
        m_logSummary->setText(total == 1 ? tr("1 request logged")
                                         : tr("%1 requests logged").arg(total));
    } else {
        m_logSummary->setText(
            tr("%1 requests logged, showing the newest %2").arg(total).arg(m_logModel->rowCount()));
    }
}

} // namespace MemoryGraph::Ui
