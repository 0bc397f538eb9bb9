// An approver step: who approves (directory pickers), how they decide, and what happens when
// the approver is the initiator, nobody is found, time runs out, or someone rejects.
import { t } from '../i18n';
import { PeoplePicker } from '../../../components/PeoplePicker';
import type { Doc, Node } from '../model/doc';
import { canonicalConfig, hasLegacyKeys, setNodeField } from '../model/edit';
import type { DesignerStore } from '../store';
import { Num, Select, Text } from './controls';
import { FieldPermissions, NodeSwitches } from './Permissions';

const lists = { user: 'userIds', role: 'roleIds', dept: 'deptIds' } as const;

export function UserTaskPanel({ node, doc, store }: { node: Node; doc: Doc; store: DesignerStore }) {
  const f = t.designer.f;
  const c = canonicalConfig(node);
  const a = c.approver ?? { type: 'user' };
  const id = node.id;
  const set = (path: (string | number)[], v: unknown) => store.setField(id, ['configuration', ...path], v);
  const listKey = lists[a.type as keyof typeof lists];
  const targets = Object.fromEntries(
    doc.metadata.nodes
      .filter((n) => n.id !== id && (n.type === 'userTask' || n.type === 'startTask'))
      .map((n) => [n.id, n.name ?? n.id]),
  );
  return (
    <>
      {hasLegacyKeys(node) && <p class="muted small">{t.designer.legacy}</p>}
      <Select
        id={`${id}-kind`}
        label={f.kind}
        value={c.kind ?? 'approval'}
        options={f.kindValues}
        onValue={(v) => set(['kind'], v)}
      />
      <Select
        id={`${id}-approver`}
        label={f.approverType}
        value={a.type}
        options={f.approverTypes}
        onValue={(v) =>
          set(['approver'], v === 'manager' || v === 'multiLevelManager' ? { type: v, levels: 1 } : { type: v })
        }
      />
      {listKey && (
        <PeoplePicker
          key={listKey}
          id={`${id}-${listKey}`}
          kind={a.type as keyof typeof lists}
          multiple
          label={f[a.type === 'user' ? 'users' : a.type === 'role' ? 'roles' : 'depts']}
          value={Array.isArray(a[listKey]) ? a[listKey] : []}
          onChange={(v) => set(['approver', listKey], v)}
        />
      )}
      {(a.type === 'manager' || a.type === 'multiLevelManager') && (
        <Num
          id={`${id}-levels`}
          label={f.levels}
          value={a.levels}
          help={a.type === 'multiLevelManager' ? f.levelsHelp : undefined}
          onValue={(v) => set(['approver', 'levels'], v)}
        />
      )}
      {a.type === 'initiatorSelect' && (
        <Text
          id={`${id}-expr`}
          label={f.expression}
          value={a.expression ?? ''}
          onValue={(v) => set(['approver', 'expression'], v)}
        />
      )}
      <Select
        id={`${id}-mode`}
        label={f.approveMode}
        value={c.approveMode}
        options={f.approveModes}
        onValue={(v) =>
          // A vote rule belongs to vote only: switching away drops it, switching to vote starts at a majority.
          store.run('field', (d) =>
            setNodeField(
              setNodeField(d, id, ['configuration', 'approveMode'], v),
              id,
              ['configuration', 'voteRule'],
              v === 'vote' ? (c.voteRule ?? { type: 'majority' }) : undefined,
            ),
          )
        }
      />
      {c.approveMode === 'vote' && (
        <>
          <Select
            id={`${id}-vote`}
            label={f.voteRule}
            value={c.voteRule?.type ?? 'majority'}
            options={f.voteRules}
            onValue={(v) =>
              set(['voteRule'], v === 'majority' ? { type: v } : { type: v, value: v === 'percent' ? 50 : 1 })
            }
          />
          {c.voteRule && c.voteRule.type !== 'majority' && (
            <Num
              id={`${id}-vote-value`}
              label={f.voteValue}
              value={c.voteRule.value}
              onValue={(v) => set(['voteRule', 'value'], v)}
            />
          )}
        </>
      )}
      <Select
        id={`${id}-self`}
        label={f.selfApproval}
        value={c.selfApproval}
        options={f.selfApprovals}
        onValue={(v) => set(['selfApproval'], v)}
      />
      <Select
        id={`${id}-empty`}
        label={f.emptyApprover}
        value={c.emptyApproverPolicy}
        options={f.emptyApprovers}
        onValue={(v) => set(['emptyApproverPolicy'], v)}
      />
      <fieldset>
        <legend>{f.timeout}</legend>
        <Num
          id={`${id}-due`}
          label={f.dueInMinutes}
          value={c.timeout?.dueInMinutes}
          onValue={(v) =>
            set(['timeout'], v === undefined ? undefined : { action: 'remind', ...c.timeout, dueInMinutes: v })
          }
        />
        {c.timeout && (
          <Select
            id={`${id}-due-action`}
            label={f.timeoutAction}
            value={c.timeout.action ?? 'remind'}
            options={f.timeoutActions}
            onValue={(v) => set(['timeout', 'action'], v)}
          />
        )}
      </fieldset>
      <Select
        id={`${id}-reject`}
        label={f.reject}
        value={c.reject?.strategy ?? 'terminate'}
        options={f.rejects}
        onValue={(v) =>
          set(['reject'], v === 'toNode' ? { strategy: v, target: Object.keys(targets)[0] ?? null } : { strategy: v })
        }
      />
      {c.reject?.strategy === 'toNode' && (
        <Select
          id={`${id}-reject-target`}
          label={f.rejectTarget}
          value={c.reject.target ?? ''}
          options={targets}
          onValue={(v) => set(['reject', 'target'], v)}
        />
      )}
      <Text
        id={`${id}-task-name`}
        label={f.taskName}
        value={c.taskName ?? ''}
        onValue={(v) => set(['taskName'], v || undefined)}
      />
      <NodeSwitches node={node} store={store} />
      <FieldPermissions node={node} doc={doc} store={store} />
    </>
  );
}
