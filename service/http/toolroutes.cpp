#include "service/http/routes.h"
#include "service/http/tooldto.h"
#include "service/memoryservice.h"

namespace MemoryGraph::Routes {

// spec §4.7
RouteHandler rulesEvaluate(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = RulesEvaluateRequest::fromJson(call.json);
        if (!request)
            return request.error();
        auto outcome = service->evaluateRules(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::rulesEvaluate(outcome.value()), {}};
    };
}

RouteHandler ruleState(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = RuleStateRequest::fromJson(call.json);
        if (!request)
            return request.error();
        auto outcome = service->setRuleState(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::ruleState(outcome.value()), {}};
    };
}

// spec §4.8
RouteHandler toolsSelect(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = ToolSelectRequest::fromJson(call.json);
        if (!request)
            return request.error();
        auto outcome = service->selectTools(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::toolSelect(outcome.value(), call.meta.requestId), {}};
    };
}

// spec §4.9
RouteHandler toolsFeedback(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = ToolFeedbackRequest::fromJson(call.json, service->config().maxTextLength);
        if (!request)
            return request.error();
        auto outcome = service->toolFeedback(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::toolFeedback(outcome.value()), {}};
    };
}

// spec §4.10
RouteHandler toolsDecision(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = ToolDecisionRequest::fromJson(call.json);
        if (!request)
            return request.error();
        auto outcome = service->toolDecision(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::toolDecision(outcome.value(), call.meta.requestId), {}};
    };
}

// spec §4.11
RouteHandler toolsRun(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = ToolRunRequest::fromJson(call.json);
        if (!request)
            return request.error();
        auto outcome = service->toolRun(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::toolRun(outcome.value(), call.meta.requestId), {}};
    };
}

// reference §3.5
RouteHandler toolsRunsList(MemoryService *service)
{
    return [service](const HttpCall &call) -> Result<HttpReply> {
        auto request = ToolRunsListRequest::fromJson(call.json);
        if (!request)
            return request.error();
        auto outcome = service->toolRunsList(request.value(), call.meta);
        if (!outcome)
            return outcome.error();
        return HttpReply{200, Dto::toolRunsList(outcome.value()), {}};
    };
}

} // namespace MemoryGraph::Routes
