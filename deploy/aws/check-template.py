#!/usr/bin/env python3
"""Checks a CloudFormation YAML template without AWS: it parses (short-form tags included), and
every name it uses is one it defines.

  check-template.py [TEMPLATE ...]    (default: template.yaml next to this script)
  check-template.py --self-test       (proves the checker finds the mistakes it is meant to find)

Checked: top-level sections are known ones; every resource has an AWS:: type; Ref names a
parameter, a resource or a pseudo-parameter; GetAtt, DependsOn and the ${...} names in Sub name a
resource (or, for Sub, a parameter, pseudo-parameter or one of the Sub's own variables);
Condition, Fn::If and the Condition function name a defined condition; FindInMap names a mapping;
every parameter is used; and, for every combination of the parameter values the conditions test,
no resource or output that exists refers to a resource that does not (outside the Fn::If branches
not taken), which CloudFormation would reject only at deploy time. What this cannot check (property names and types, attribute names,
service limits) needs cfn-lint or a real deployment.

Exit status: 0 when clean, 1 when a problem was found (each printed on its own line).
"""

import os
import re
import sys

import yaml

PSEUDO_PARAMETERS = {
    "AWS::AccountId",
    "AWS::NoValue",
    "AWS::NotificationARNs",
    "AWS::Partition",
    "AWS::Region",
    "AWS::StackId",
    "AWS::StackName",
    "AWS::URLSuffix",
}
SECTIONS = {
    "AWSTemplateFormatVersion",
    "Description",
    "Metadata",
    "Parameters",
    "Rules",
    "Mappings",
    "Conditions",
    "Transform",
    "Resources",
    "Outputs",
}
SHORT_TAGS = {
    "Ref": "Ref",
    "Condition": "Condition",
    "GetAtt": "Fn::GetAtt",
    "Sub": "Fn::Sub",
    "If": "Fn::If",
    "Equals": "Fn::Equals",
    "Not": "Fn::Not",
    "And": "Fn::And",
    "Or": "Fn::Or",
    "Select": "Fn::Select",
    "Split": "Fn::Split",
    "Join": "Fn::Join",
    "GetAZs": "Fn::GetAZs",
    "Base64": "Fn::Base64",
    "FindInMap": "Fn::FindInMap",
    "ImportValue": "Fn::ImportValue",
    "Cidr": "Fn::Cidr",
    "Contains": "Fn::Contains",
    "EachMemberEquals": "Fn::EachMemberEquals",
    "EachMemberIn": "Fn::EachMemberIn",
    "RefAll": "Fn::RefAll",
    "ValueOf": "Fn::ValueOf",
    "ValueOfAll": "Fn::ValueOfAll",
    "Length": "Fn::Length",
    "ToJsonString": "Fn::ToJsonString",
}
# ${Name} or ${Resource.Attribute}; ${!Literal} is an escape and names nothing.
SUB_NAME = re.compile(r"\$\{(?!!)([^}]*)\}")


class CfnLoader(yaml.SafeLoader):
    """SafeLoader that turns !Ref x into {"Ref": x}, !GetAtt a.b into {"Fn::GetAtt": [a, b]}, ..."""


def _construct(long_name):
    def construct(loader, node):
        if isinstance(node, yaml.ScalarNode):
            value = loader.construct_scalar(node)
            if long_name == "Fn::GetAtt":
                value = value.split(".", 1)
        elif isinstance(node, yaml.SequenceNode):
            value = loader.construct_sequence(node, deep=True)
        else:
            value = loader.construct_mapping(node, deep=True)
        return {long_name: value}

    return construct


for _short, _long in SHORT_TAGS.items():
    CfnLoader.add_constructor("!" + _short, _construct(_long))


def load(text):
    return yaml.load(text, Loader=CfnLoader)  # noqa: S506 - SafeLoader subclass


class Checker:
    def __init__(self, template):
        self.t = template if isinstance(template, dict) else {}
        self.problems = []
        self.parameters = set(self._section("Parameters"))
        self.resources = set(self._section("Resources"))
        self.conditions = set(self._section("Conditions"))
        self.mappings = set(self._section("Mappings"))
        self.used_parameters = set()

    def _section(self, name):
        value = self.t.get(name) or {}
        if not isinstance(value, dict):
            self.problems.append(f"{name}: must be a mapping")
            return {}
        return value

    def problem(self, where, message):
        self.problems.append(f"{where}: {message}")

    def check(self):
        if not isinstance(self.t, dict) or not self.t:
            self.problems.append("template: not a YAML mapping")
            return self.problems
        for key in self.t:
            if key not in SECTIONS:
                self.problem("template", f"unknown top-level section '{key}'")
        if not self.resources:
            self.problem("Resources", "no resources")
        for name, body in self._section("Resources").items():
            self.check_resource(name, body)
        for name, body in self._section("Conditions").items():
            self.walk(body, f"Conditions.{name}")
        for name, body in self._section("Rules").items():
            self.walk(body, f"Rules.{name}", in_rules=True)
        for name, body in self._section("Outputs").items():
            where = f"Outputs.{name}"
            if isinstance(body, dict):
                self.check_condition_name(body.get("Condition"), where)
                self.walk({k: v for k, v in body.items() if k != "Condition"}, where)
            if not isinstance(body, dict) or "Value" not in body:
                self.problem(where, "has no Value")
        for name in sorted(self.parameters - self.used_parameters):
            self.problem(f"Parameters.{name}", "is never used")
        if not self.problems:
            ConditionalReferences(self).check()
        return self.problems

    def check_resource(self, name, body):
        where = f"Resources.{name}"
        if not isinstance(body, dict):
            self.problem(where, "must be a mapping")
            return
        rtype = body.get("Type")
        if not isinstance(rtype, str) or not re.match(r"^(AWS|Custom)::\w+(::\w+)?", rtype):
            self.problem(where, f"Type '{rtype}' is not an AWS resource type")
        depends = body.get("DependsOn", [])
        for dep in [depends] if isinstance(depends, str) else depends:
            if dep not in self.resources:
                self.problem(where, f"DependsOn '{dep}' is not a resource of this template")
            elif dep == name:
                self.problem(where, "depends on itself")
        self.check_condition_name(body.get("Condition"), where)
        for key in ("Properties", "Metadata", "CreationPolicy", "UpdatePolicy"):
            if key in body:
                self.walk(body[key], f"{where}.{key}")

    def check_condition_name(self, name, where):
        if name is not None and name not in self.conditions:
            self.problem(where, f"condition '{name}' is not defined")

    def check_ref(self, name, where, sub_variables=(), in_rules=False):
        if not isinstance(name, str):
            self.problem(where, f"Ref of a non-name {name!r}")
        elif name in sub_variables or name in PSEUDO_PARAMETERS:
            pass
        elif name in self.parameters:
            self.used_parameters.add(name)
        elif name in self.resources and not in_rules:
            pass
        else:
            self.problem(where, f"'{name}' is neither a parameter nor a resource of this template")

    def check_getatt(self, value, where):
        if not (isinstance(value, list) and len(value) == 2):
            self.problem(where, f"GetAtt needs [Resource, Attribute], not {value!r}")
        elif value[0] not in self.resources:
            self.problem(where, f"GetAtt of '{value[0]}', which is not a resource of this template")

    def check_sub(self, value, where):
        if isinstance(value, str):
            text, variables = value, {}
        elif isinstance(value, list) and len(value) == 2 and isinstance(value[1], dict):
            text, variables = value
            self.walk(variables, where)
        else:
            self.problem(where, f"Sub needs a string or [string, variables], not {value!r}")
            return
        if not isinstance(text, str):
            self.problem(where, "Sub's first element must be a string")
            return
        for expression in SUB_NAME.findall(text):
            name = expression.strip()
            if name in variables:
                continue
            if "." in name and not name.startswith("AWS::"):
                self.check_getatt(name.split(".", 1), where)
            else:
                self.check_ref(name, where, variables)

    def walk(self, node, where, in_rules=False):
        if isinstance(node, list):
            for i, item in enumerate(node):
                self.walk(item, f"{where}[{i}]", in_rules)
            return
        if not isinstance(node, dict):
            return
        if len(node) == 1:
            (key, value), = node.items()
            if key == "Ref":
                self.check_ref(value, where, in_rules=in_rules)
                return
            if key == "Fn::GetAtt":
                if isinstance(value, str):
                    value = value.split(".", 1)
                self.check_getatt(value, where)
                return
            if key == "Fn::Sub":
                self.check_sub(value, where)
                return
            if key in ("Fn::If",):
                if not (isinstance(value, list) and len(value) == 3):
                    self.problem(where, "Fn::If needs [Condition, then, else]")
                else:
                    self.check_condition_name(value[0], where)
                    self.walk(value[1:], where, in_rules)
                return
            if key == "Condition" and isinstance(value, str):
                self.check_condition_name(value, where)
                return
            if key == "Fn::FindInMap" and isinstance(value, list) and value:
                if isinstance(value[0], str) and value[0] not in self.mappings:
                    self.problem(where, f"mapping '{value[0]}' is not defined")
                self.walk(value[1:], where, in_rules)
                return
        for key, value in node.items():
            self.walk(value, f"{where}.{key}", in_rules)



class ConditionalReferences:
    """Evaluates the conditions for every combination of the values their parameters are compared
    with (plus each parameter's default, allowed values and one other value), and checks that in
    each combination the resources and outputs that exist refer only to resources that exist."""

    OTHER = "\u0000other"
    MAX_SCENARIOS = 4096

    def __init__(self, checker):
        self.c = checker
        self.conditions = checker._section("Conditions")
        self.parameters = checker._section("Parameters")

    def check(self):
        params = sorted(self._tested_parameters())
        domains = []
        for name in params:
            spec = self.parameters.get(name) or {}
            allowed = [str(v) for v in spec.get("AllowedValues", []) or []]
            if allowed:  # CloudFormation accepts no other value
                values = set(allowed)
            else:
                values = {self.OTHER, str(spec.get("Default", self.OTHER))}
                values.update(self._literals_compared_with(name))
            domains.append(sorted(values))
        scenarios = [{}]
        for name, values in zip(params, domains):
            scenarios = [dict(s, **{name: v}) for s in scenarios for v in values]
            if len(scenarios) > self.MAX_SCENARIOS:
                return  # too many to enumerate; the name checks above still ran
        reported = set()
        for scenario in scenarios:
            truth = {}
            try:
                for name in self.conditions:
                    self._condition(name, scenario, truth)
            except ValueError:
                return  # a condition this checker cannot evaluate
            exists = {
                name
                for name, body in self.c._section("Resources").items()
                if not isinstance(body, dict) or body.get("Condition") is None
                or truth.get(body["Condition"], False)
            }
            for section in ("Resources", "Outputs"):
                for name, body in self.c._section(section).items():
                    if not isinstance(body, dict):
                        continue
                    if body.get("Condition") is not None and not truth.get(body["Condition"]):
                        continue
                    if section == "Resources" and name not in exists:
                        continue
                    where = f"{section}.{name}"
                    parts = {k: v for k, v in body.items() if k not in ("Condition", "Type")}
                    for missing in self._missing(parts, exists, truth):
                        key = (where, missing)
                        if key not in reported:
                            reported.add(key)
                            shown = ", ".join(f"{k}={'(other)' if v == self.OTHER else v}"
                                              for k, v in scenario.items())
                            self.c.problem(where, f"refers to '{missing}', which does not exist "
                                                  f"when {shown}")

    def _tested_parameters(self):
        found = set()

        def visit(node):
            if isinstance(node, dict):
                if set(node) == {"Ref"} and node["Ref"] in self.c.parameters:
                    found.add(node["Ref"])
                for v in node.values():
                    visit(v)
            elif isinstance(node, list):
                for v in node:
                    visit(v)

        visit(self.conditions)
        return found

    def _literals_compared_with(self, name):
        found = set()

        def visit(node):
            if isinstance(node, dict):
                args = node.get("Fn::Equals")
                if isinstance(args, list) and len(args) == 2:
                    for a, b in (args, args[::-1]):
                        if a == {"Ref": name} and isinstance(b, (str, int, float, bool)):
                            found.add(str(b))
                for v in node.values():
                    visit(v)
            elif isinstance(node, list):
                for v in node:
                    visit(v)

        visit(self.conditions)
        return found

    def _value(self, node, scenario):
        if isinstance(node, (str, int, float, bool)):
            return str(node)
        if isinstance(node, dict) and set(node) == {"Ref"} and node["Ref"] in scenario:
            return scenario[node["Ref"]]
        raise ValueError(f"cannot evaluate {node!r}")

    def _condition(self, name, scenario, truth):
        if name not in truth:
            truth[name] = self._evaluate(self.conditions[name], scenario, truth)
        return truth[name]

    def _evaluate(self, node, scenario, truth):
        if not (isinstance(node, dict) and len(node) == 1):
            raise ValueError(f"cannot evaluate {node!r}")
        (fn, args), = node.items()
        if fn == "Condition":
            return self._condition(args, scenario, truth)
        if fn == "Fn::Equals":
            return self._value(args[0], scenario) == self._value(args[1], scenario)
        if fn == "Fn::Not":
            return not self._evaluate(args[0], scenario, truth)
        if fn == "Fn::And":
            return all(self._evaluate(a, scenario, truth) for a in args)
        if fn == "Fn::Or":
            return any(self._evaluate(a, scenario, truth) for a in args)
        raise ValueError(f"cannot evaluate {fn}")

    def _missing(self, node, exists, truth):
        """Names of resources referred to in node (following only taken Fn::If branches)."""
        resources = self.c.resources
        if isinstance(node, list):
            for item in node:
                yield from self._missing(item, exists, truth)
            return
        if not isinstance(node, dict):
            return
        if len(node) == 1:
            (key, value), = node.items()
            if key == "Fn::If" and isinstance(value, list) and len(value) == 3:
                yield from self._missing(value[1] if truth.get(value[0]) else value[2], exists, truth)
                return
            names = []
            if key == "Ref":
                names = [value]
            elif key == "Fn::GetAtt":
                names = [value.split(".", 1)[0] if isinstance(value, str) else value[0]]
            elif key == "Fn::Sub":
                text, variables = (value, {}) if isinstance(value, str) else (value[0], value[1])
                names = [n.strip().split(".", 1)[0] for n in SUB_NAME.findall(text)
                         if n.strip() not in variables]
                yield from self._missing(variables, exists, truth)
            for name in names:
                if name in resources and name not in exists:
                    yield name
            if names or key == "Fn::Sub":
                return
        for key, value in node.items():
            if key == "DependsOn":
                for dep in [value] if isinstance(value, str) else value:
                    if dep in resources and dep not in exists:
                        yield dep
                continue
            yield from self._missing(value, exists, truth)


def check_file(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        template = load(text)
    except yaml.YAMLError as e:
        return [f"{path}: does not parse: {e}"]
    return [f"{path}: {p}" for p in Checker(template).check()]


def self_test():
    """Each broken template must produce the named problem; the good one none."""
    good = """
Parameters:
  P: {Type: String}
Conditions:
  C: !Equals [!Ref P, x]
Resources:
  A: {Type: AWS::SNS::Topic}
  B:
    Type: AWS::SQS::Queue
    Condition: C
    DependsOn: A
    Properties:
      QueueName: !Sub '${A.TopicName}-${AWS::Region}-${!Literal}'
Outputs:
  O: {Value: !If [C, !GetAtt B.Arn, !Sub ['${X}', {X: !Ref A}]]}
"""
    broken = {
        "Ref Nope": "'Nope' is neither",
        "DependsOn: Nope": "DependsOn 'Nope'",
        "!GetAtt Nope.Arn": "GetAtt of 'Nope'",
        "!Sub '${Nope}'": "'Nope' is neither",
        "!Sub '${Nope.Arn}'": "GetAtt of 'Nope'",
        "!If [Nope, a, b]": "condition 'Nope'",
    }
    failures = []
    problems = Checker(load(good)).check()
    if problems:
        failures.append(f"good template reported {problems}")
    for snippet, expected in broken.items():
        if snippet.startswith("DependsOn"):
            text = good.replace("DependsOn: A", snippet)
        elif snippet.startswith("Ref "):
            text = good.replace("!Ref A}", "!" + snippet + "}")
        else:
            text = good.replace("!GetAtt B.Arn", snippet)
        problems = Checker(load(text)).check()
        if not any(expected in p for p in problems):
            failures.append(f"{snippet}: expected a problem containing {expected!r}, got {problems}")
    dangling = good.replace("O: {Value:", "D: {Value: !Ref B}\n  O: {Value:")
    problems = Checker(load(dangling)).check()
    if not any("refers to 'B', which does not exist when P=" in p for p in problems):
        failures.append(f"reference to a conditional resource not reported: {problems}")
    unused = Checker(load(good.replace("!Ref P", "x"))).check()
    if not any("Parameters.P: is never used" in p for p in unused):
        failures.append(f"unused parameter not reported: {unused}")
    for f in failures:
        print("self-test: " + f)
    print(f"self-test: {len(broken) + 3 - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    paths = argv[1:] or [os.path.join(os.path.dirname(os.path.abspath(__file__)), "template.yaml")]
    problems = [p for path in paths for p in check_file(path)]
    for p in problems:
        print(p)
    if not problems:
        print(f"check-template: {', '.join(paths)}: OK")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
