// The panel of the selected step: its name and description, then its kind's own settings, then
// the problems found on it.
import { t } from '../i18n';
import { isWarning } from '../model/problems';
import { CasesPanel } from './CasesPanel';
import { Text, type NodePanelProps } from './controls';
import { FieldPermissions } from './Permissions';
import {
  AiAgentPanel,
  AutomationPanel,
  CcPanel,
  DelayPanel,
  HttpPanel,
  JoinPanel,
  ServicePanel,
  SubProcessPanel,
} from './StepPanels';
import { UserTaskPanel } from './UserTaskPanel';
import { problemField, problemText } from '../problemText';

export function NodePanel({ node, doc, store, problems }: NodePanelProps) {
  const f = t.designer.f;
  const p = { node, store };
  return (
    <div data-panel={node.type} data-panel-node={node.id}>
      <h2>
        {t.designer.types[node.type] ?? node.type} <code class="small">{node.id}</code>
      </h2>
      {problems?.length ? (
        <ul class="problems" role="alert">
          {problems.map((x, i) => (
            <li key={i} data-severity={x.severity ?? 'error'}>
              {isWarning(x) && <strong>{t.designer.warning}: </strong>}
              {problemField(x.field, doc) && (
                <span title={x.field ?? undefined}>
                  {problemField(x.field, doc)}
                  {t.designer.problemWords.sep}
                </span>
              )}
              {problemText(x)}
            </li>
          ))}
        </ul>
      ) : null}
      <Text
        id={`${node.id}-name`}
        label={f.name}
        value={node.name ?? ''}
        onValue={(v) => store.setField(node.id, ['name'], v)}
      />
      <Text
        id={`${node.id}-description`}
        label={f.description}
        multiline
        value={String(node.additionalInfo?.description ?? '')}
        onValue={(v) => store.setField(node.id, ['additionalInfo', 'description'], v || undefined)}
      />
      {node.type === 'userTask' && <UserTaskPanel {...p} doc={doc} />}
      {node.type === 'startTask' && <FieldPermissions {...p} doc={doc} />}
      {node.type === 'ccTask' && <CcPanel {...p} />}
      {(node.type === 'switch' || node.type === 'inclusive') && <CasesPanel {...p} doc={doc} problems={problems} />}
      {node.type === 'serviceTask' && <ServicePanel {...p} />}
      {node.type === 'httpCall' && <HttpPanel {...p} />}
      {node.type === 'aiAgent' && <AiAgentPanel {...p} />}
      {node.type === 'delay' && <DelayPanel {...p} />}
      {node.type === 'subProcess' && <SubProcessPanel {...p} />}
      {node.type === 'automation' && <AutomationPanel {...p} />}
      {node.type === 'join' && <JoinPanel {...p} />}
    </div>
  );
}
