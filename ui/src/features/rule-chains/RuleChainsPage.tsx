// "Rule chains" (docs/rule-chains.md#the-console), for workflow:definition:read; editing, starting and
// stopping for workflow:definition:write: the list of the tenant's chains, and one chain's graph editor
// with its test run and run log.
import { ChainList } from './components/ChainList';
import { ChainEditor } from './components/ChainEditor';
import { session } from '../../lib/session';

export function RuleChainsPage({ id }: { id: string | null }) {
  const canWrite = !!session.get()?.can.definitionsWrite;
  return id === null ? <ChainList canWrite={canWrite} /> : <ChainEditor id={id} canWrite={canWrite} />;
}
