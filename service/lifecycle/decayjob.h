#pragma once

#include "service/api/decayreport.h"
#include "service/core/config.h"
#include "service/core/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

namespace MemoryGraph {

class Database;

/// The knobs of the adaptive decay job, read from ServiceConfig (reference §6.3).
struct DecaySettings
{
    bool adaptive = true; ///< false: every node decays at the plain factor
    int recentDays = 7;
    double decayFactor = 0.995;
    int hotBudget = 0;    ///< max hot nodes per scope, 0 = off
    int activeBudget = 0; ///< max hot + warm nodes per scope, 0 = off

    static DecaySettings fromConfig(const ServiceConfig &config);
};

/// Adaptive salience decay and tier demotion (reference §6.3), one commit per scope run.
/// Eligibility for demotion is decided from the state read before this run changes anything,
/// so the salience update of the same run cannot hide a node from demotion. Threshold
/// demotions go first (oldest activity, then lowest salience); working-set budget demotions
/// (least salient first) share the same daily mutation budget. A node moves one tier per run.
class DecayJob
{
public:
    DecayJob(Database &db, const ServiceConfig &config);

    /// Runs over (tenant, scope) as if the time were `now` (tests simulate time this way).
    Result<DecayReport> run(const QString &tenantId, const QString &scope, const QDateTime &now);

private:
    Database &m_db;
    const ServiceConfig &m_config;
    DecaySettings m_settings;
};

namespace Decay {

/// slots.pin or slots.legal_hold is true, 1, "yes", "on", "true" or "1".
bool isProtected(const QJsonObject &slotData);
/// Feedback signal in [-1, 1]: feedback_quality, else (pos - neg) / max(1, pos + neg), else 0.
double feedbackSignal(const QJsonObject &slotData);
/// clamp((recent ? 0.6 : 1) x f(fb), 0.25, 2) where f favours useful nodes and hurts bad ones.
double decayScale(bool recent, double feedback);
/// clamp01(salience x (1 - (1 - factor) x scale)).
double decayedSalience(double salience, double factor, double scale);

} // namespace Decay

} // namespace MemoryGraph
