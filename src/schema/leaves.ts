/**
 * The scalar leaves of a record: every scalar field at any depth, named by its
 * dotted path without indexes (`items.unitprice`, `realtime.serverType`). The
 * format checks judge each leaf's form; the item catalogue has an item per leaf.
 */
import type { FieldModel } from './model.js';

export interface Leaf {
  /** dotted path without indexes: items.unitprice */
  subject: string;
  field: FieldModel;
  /** the fields from the record down to the leaf */
  trail: FieldModel[];
}

const at = (base: string, name: string) => (base ? `${base}.${name}` : name);

export function leaves(fields: FieldModel[], prefix = '', trail: FieldModel[] = []): Leaf[] {
  return fields.flatMap((f) => {
    const t = [...trail, f];
    if (f.kind === 'array' && f.itemFields) return leaves(f.itemFields, at(prefix, f.name), t);
    if (f.kind === 'object' && f.objectFields) return leaves(f.objectFields, at(prefix, f.name), t);
    if (f.kind === 'array' || f.kind === 'object' || f.kind === 'any') return [];
    return [{ subject: at(prefix, f.name), field: f, trail: t }];
  });
}
