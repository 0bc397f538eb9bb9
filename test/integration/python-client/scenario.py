"""The approval scenario through the client openapi-python-client generated from /openapi.json.

Run by test/integration/python-client.test.ts: python scenario.py <base url> <example.json> <key>,
with the generated package `approval_client` on PYTHONPATH. No hand-written HTTP: every call is a
generated function with generated models. Prints one JSON object with what it saw.
"""

import json
import sys

from approval_client import AuthenticatedClient, Client
from approval_client.api.auth import post_api_v1_auth_login
from approval_client.api.process_definitions import post_api_v1_workflow_process_definitions_deploy
from approval_client.api.process_instances import (
    get_api_v1_workflow_process_instances_id,
    get_api_v1_workflow_process_instances_todo,
    post_api_v1_workflow_process_instances_start,
)
from approval_client.api.tasks import post_api_v1_workflow_tasks_id_approve
from approval_client.models import (
    ApprovalDecisionBody,
    DefinitionDeployBodyWithDsl,
    ErrorEnvelope,
    LoginRequest,
    ProcessDsl,
    StartInstance,
    VariablesInput,
)

base_url, example_path, key = sys.argv[1], sys.argv[2], sys.argv[3]


def ok(response, what):
    """The envelope's data, or a failure that names the call and the answer."""
    if response is None or isinstance(response, ErrorEnvelope):
        detail = response.to_dict() if response is not None else "no parsed answer"
        raise SystemExit(f"{what} failed: {json.dumps(detail)}")
    return response.data


def session(username, password):
    answer = post_api_v1_auth_login.sync(
        client=Client(base_url=base_url, raise_on_unexpected_status=True),
        body=LoginRequest(username=username, password=password, tenant_id="demo"),
    )
    token = ok(answer, f"login {username}").access_token
    return AuthenticatedClient(base_url=base_url, token=token, raise_on_unexpected_status=True)


admin = session("admin", "admin")
alice = session("alice", "demo")
bob = session("bob", "demo")  # alice's manager: a short leave is his to decide

with open(example_path, encoding="utf-8") as f:
    document = json.load(f)
document["ruleChain"]["id"] = key  # a process of its own, so other tests' leave requests are not touched
definition = ok(
    post_api_v1_workflow_process_definitions_deploy.sync(
        client=admin, body=DefinitionDeployBodyWithDsl(dsl=ProcessDsl.from_dict(document))
    ),
    "deploy",
)

started = ok(
    post_api_v1_workflow_process_instances_start.sync(
        client=alice,
        body=StartInstance(
            process_key=key,
            business_key=f"{key}-1",
            variables=VariablesInput.from_dict({"days": 2, "reason": "family"}),
        ),
    ),
    "start",
)

todo = ok(get_api_v1_workflow_process_instances_todo.sync(client=bob, process_key=key), "to-do")
task = next(t for t in todo.items if t.instance_id == started.instance_id)

decided = ok(
    post_api_v1_workflow_tasks_id_approve.sync(
        id=task.id, client=bob, body=ApprovalDecisionBody(comment="enjoy")
    ),
    "approve",
)

instance = ok(get_api_v1_workflow_process_instances_id.sync(id=started.instance_id, client=alice), "instance")

print(
    json.dumps(
        {
            "definition": {"key": definition.key, "version": definition.version, "status": str(definition.status)},
            "instanceId": started.instance_id,
            "todo": {"total": todo.total, "taskId": task.id, "name": task.name, "assignee": task.assignee},
            "approved": {"result": decided.task.result, "status": str(decided.task.status)},
            "instance": {
                "status": str(instance.status),
                "failure": None if instance.failure is None else instance.failure.to_dict(),
                "trail": [e.type_ for e in instance.trail],
            },
        }
    )
)
