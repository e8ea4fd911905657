"""cfn-lint rules E9101 and E9102: the template's Rules hold, and every value matches its parameter's
AllowedPattern (and a Number's MinValue and MaxValue), for the parameter values given with
--parameters.

CloudFormation evaluates a template's Rules before it creates anything, so a combination they
forbid (several servers without the load balancer, RabbitMQ 4.2 off mq.m7g, a clustered
mq.t3.micro) fails at once. cfn-lint 1.51 uses Rules only to narrow the condition scenarios it
explores and does not evaluate them against given values; this rule does, so check.sh proves each
README combination passes the Rules and DeployChecksIT proves the forbidden ones do not.

It evaluates the functions Rules may use that compare values (Fn::Equals, Fn::Not, Fn::And,
Fn::Or, Fn::Contains) over Ref to parameters (given, else their Default); any other function is
reported as one this rule cannot evaluate rather than passed silently.

AllowedPattern: cfn-lint 1.51's parameter check (E2900) applies AllowedValues but looks for the
key "Pattern", so it never applies AllowedPattern (e.g. BrokerName's 50-character limit); E9102 does.
Nor does it apply a Number's MinValue and MaxValue to given values (QueuePartitions=0 passed it);
E9102 does.
"""

import re

from cfnlint.rules import CloudFormationLintRule, RuleMatch


class Unsupported(Exception):
    pass


def evaluate(node, values):
    if isinstance(node, list):
        return [evaluate(item, values) for item in node]
    if not isinstance(node, dict):
        return str(node)
    if len(node) != 1:
        raise Unsupported(f"an object with {len(node)} keys")
    ((function, argument),) = node.items()
    if function == "Ref":
        if argument not in values:
            raise Unsupported(f"Ref {argument} (no value given and no Default)")
        return values[argument]
    if function == "Fn::Equals":
        left, right = evaluate(argument, values)
        return left == right
    if function == "Fn::Not":
        return not evaluate(argument[0], values)
    if function == "Fn::And":
        return all(evaluate(argument, values))
    if function == "Fn::Or":
        return any(evaluate(argument, values))
    if function == "Fn::Contains":
        candidates, value = evaluate(argument, values)
        return value in candidates
    raise Unsupported(function)


class RulesHoldForTheParameters(CloudFormationLintRule):
    id = "E9101"
    shortdesc = "Rules hold for the given parameter values"
    description = (
        "Evaluates each Rule's RuleCondition and Assertions against the parameter values given "
        "with --parameters (or a parameter's Default), as CloudFormation does before creating "
        "anything"
    )
    source_url = "https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/rules-section-structure.html"
    tags = ["rules", "parameters"]

    def match(self, cfn):
        matches = []
        parameters = cfn.template.get("Parameters", {})
        for parameter_set in cfn.context.parameter_sets or []:
            values = {n: str(p["Default"]) for n, p in parameters.items() if "Default" in p}
            values.update({n: str(v) for n, v in parameter_set.parameters.items()})
            for name, rule in cfn.template.get("Rules", {}).items():
                path = ["Rules", name]
                try:
                    condition = rule.get("RuleCondition")
                    if condition is not None and not evaluate(condition, values):
                        continue
                    for i, assertion in enumerate(rule.get("Assertions", [])):
                        if not evaluate(assertion.get("Assert"), values):
                            matches.append(
                                RuleMatch(
                                    path + ["Assertions", i, "Assert"],
                                    f"Rule {name} fails: {assertion.get('AssertDescription', '')}",
                                )
                            )
                except Unsupported as e:
                    matches.append(RuleMatch(path, f"Rule {name}: cannot evaluate {e}"))
        return matches


class ValuesMatchAllowedPattern(CloudFormationLintRule):
    id = "E9102"
    shortdesc = "Given parameter values match AllowedPattern, MinValue and MaxValue"
    description = (
        "Matches each value given with --parameters against its parameter's AllowedPattern "
        "(the whole value, as CloudFormation does) and, for a Number, its MinValue and MaxValue"
    )
    source_url = "https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/parameters-section-structure.html"
    tags = ["parameters"]

    def match(self, cfn):
        matches = []
        parameters = cfn.template.get("Parameters", {})
        for parameter_set in cfn.context.parameter_sets or []:
            for name, value in parameter_set.parameters.items():
                for key, problem in problems(parameters.get(name, {}), str(value)):
                    matches.append(
                        RuleMatch(["Parameters", name, key], f"{name}={value!r} {problem}")
                    )
        return matches


def problems(parameter, value):
    """(key, what is wrong) for each constraint of the parameter that the value breaks."""
    pattern = parameter.get("AllowedPattern")
    if pattern is not None and not re.fullmatch(pattern, value):
        yield "AllowedPattern", f"does not match AllowedPattern {pattern}"
    if parameter.get("Type") != "Number":
        return
    try:
        number = float(value)
    except ValueError:
        yield "Type", "is not a number"
        return
    if "MinValue" in parameter and number < float(parameter["MinValue"]):
        yield "MinValue", f"is below MinValue {parameter['MinValue']}"
    if "MaxValue" in parameter and number > float(parameter["MaxValue"]):
        yield "MaxValue", f"is above MaxValue {parameter['MaxValue']}"
