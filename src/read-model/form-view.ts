// The form as one caller sees it: each field with their permission at the node they act on (or
// the start node's for the initiator), hidden fields left out. Used by the instance detail and by
// attachments (a hidden field hides its files).

type FieldPermission = 'r' | 'w' | 'h';

/** The form, each field marked with the caller's permission; hidden fields left out. */
export function formFor(def: { form: any; dsl: any } | null, row: any, userId: string, openTasks: any[]) {
  const form = def?.form;
  if (!form) return null;
  const mine = openTasks.find(
    (t) => t.assignee === userId && ['active', 'pending', 'waiting', 'suspended'].includes(t.status),
  );
  let perms: Record<string, FieldPermission> | null = mine?.form_permissions ?? null;
  const isInitiator = row.initiator_id === userId;
  if (!perms && isInitiator) {
    const start = def.dsl?.metadata?.nodes?.[def.dsl.metadata.firstNodeIndex ?? 0];
    perms = start?.additionalInfo?.formPermissions ?? null;
  }
  // Without a task of their own, the caller reads; the initiator of a draft writes.
  const fallback: FieldPermission = mine || (isInitiator && row.status === 'draft') ? 'w' : 'r';
  const fields = Array.isArray(form.fields) ? form.fields : [];
  const hidden: string[] = [];
  const visible = fields.flatMap((f: any) => {
    const permission: FieldPermission = perms?.[f.name] ?? fallback;
    if (permission === 'h') {
      hidden.push(f.name);
      return [];
    }
    return [
      { ...f, permission: permission === 'w' && !mine && !(isInitiator && row.status === 'draft') ? 'r' : permission },
    ];
  });
  return { form: { ...form, fields: visible }, hidden };
}
