import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { FreightTemplatesQuery, RegionCode } from '../gql/graphql';
import { regionLabel } from '../../ui/region-label';

/** A region code as typed (`cn-xz`, `CN-XZ`) in the schema's spelling (`CN_XZ`); the server refuses one it does not ship to. */
const regionCodeOf = (text: string) => text.trim().toUpperCase().replace('-', '_') as RegionCode;
import { Money } from '../../money/currency-context';
import { QueryResult } from '../../ui/query-result';
import { ActionButton, Field, Pager, fromMinor, optionalMinor, text, toMinor, usePageParam, useListContext, useAction } from '../kit';

const PAGE_SIZE = 20;

const FreightTemplates_ = graphql(`
  query FreightTemplates($page: Int, $pageSize: Int) {
    freightTemplates(page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        name
        firstUnitFee
        additionalUnitFee
        freeThreshold
        regions {
          region
          firstUnitFee
          additionalUnitFee
          freeThreshold
        }
      }
    }
  }
`);

const CreateFreightTemplate = graphql(`
  mutation ConsoleCreateFreightTemplate($input: CreateFreightTemplateInput!) {
    createFreightTemplate(input: $input) {
      template {
        id
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);
const UpdateFreightTemplate = graphql(`
  mutation ConsoleUpdateFreightTemplate($input: UpdateFreightTemplateInput!) {
    updateFreightTemplate(input: $input) {
      template {
        id
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);
const DeleteFreightTemplate = graphql(`
  mutation ConsoleDeleteFreightTemplate($input: DeleteFreightTemplateInput!) {
    deleteFreightTemplate(input: $input) {
      deletedTemplateId
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type Template = FreightTemplatesQuery['freightTemplates']['items'][number];
interface RegionRow {
  key: number;
  region: string;
  first: string;
  additional: string;
  free: string;
}
let nextKey = 1;

/** A template edited as a table: the default fees on top, one row per region that costs otherwise. */
function TemplateForm({ template, onDone }: { template?: Template; onDone: () => void }) {
  const create = useAction(CreateFreightTemplate, (d) => d.createFreightTemplate, 'Not saved');
  const update = useAction(UpdateFreightTemplate, (d) => d.updateFreightTemplate, 'Not saved');
  const [rows, setRows] = useState<RegionRow[]>(() =>
    (template?.regions ?? []).map((r) => ({ key: nextKey++, region: regionLabel(r.region), first: fromMinor(r.firstUnitFee), additional: fromMinor(r.additionalUnitFee), free: fromMinor(r.freeThreshold) })),
  );
  const action = template ? update : create;
  const errors = action.errors;
  const setRow = (key: number, patch: Partial<RegionRow>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const fields = {
      name: text(form.get('name')),
      firstUnitFee: toMinor(form.get('firstUnitFee')),
      additionalUnitFee: toMinor(form.get('additionalUnitFee')),
      freeThreshold: optionalMinor(form.get('freeThreshold')),
      regions: rows.map((r) => ({ region: regionCodeOf(r.region), firstUnitFee: toMinor(r.first), additionalUnitFee: toMinor(r.additional), freeThreshold: optionalMinor(r.free) })),
    };
    const answer = template ? await update.run({ input: { ...fields, templateId: template.id } }) : await create.run({ input: fields });
    if (answer?.template) onDone();
  };
  const prefix = template ? `t${template.id}` : 'new';
  const cols = [
    ['region', 'Region code', 'region'],
    ['first', 'First unit', 'firstUnitFee'],
    ['additional', 'Each additional unit', 'additionalUnitFee'],
    ['free', 'Free from', 'freeThreshold'],
  ] as const;
  return (
    <form onSubmit={submit} className="panel" aria-label={template ? `Edit ${template.name}` : 'New freight template'} noValidate>
      <div className="form-grid">
        <Field label="Template name" name={`${prefix}-name`} error={errors.of('name')}>
          {(p) => <input {...p} name="name" defaultValue={template?.name} required maxLength={120} />}
        </Field>
        <Field label="First unit fee" name={`${prefix}-first`} error={errors.of('firstUnitFee')}>
          {(p) => <input {...p} name="firstUnitFee" inputMode="decimal" defaultValue={fromMinor(template?.firstUnitFee)} required />}
        </Field>
        <Field label="Each additional unit" name={`${prefix}-additional`} error={errors.of('additionalUnitFee')}>
          {(p) => <input {...p} name="additionalUnitFee" inputMode="decimal" defaultValue={fromMinor(template?.additionalUnitFee)} required />}
        </Field>
        <Field label="Free from (order amount)" name={`${prefix}-free`} error={errors.of('freeThreshold')}>
          {(p) => <input {...p} name="freeThreshold" inputMode="decimal" defaultValue={fromMinor(template?.freeThreshold)} />}
        </Field>
      </div>
      <table className="grid" aria-label="Regions">
        <thead>
          <tr>
            {cols.map(([, title]) => (
              <th key={title} scope="col">
                {title}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={r.key}>
              {cols.map(([col, title, field]) => {
                const error = errors.of(`regions.${i}.${field}`);
                return (
                  <td key={col}>
                    <input aria-label={`Region ${i + 1} ${title}`} value={r[col]} placeholder={col === 'region' ? 'CN-SH' : ''} onChange={(e) => setRow(r.key, { [col]: e.target.value })} aria-invalid={Boolean(error)} />
                    {error ? (
                      <p className="field-message" role="alert">
                        {error}
                      </p>
                    ) : null}
                  </td>
                );
              })}
              <td>
                <button type="button" aria-label={`Remove region ${i + 1}`} onClick={() => setRows((all) => all.filter((x) => x.key !== r.key))}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => setRows((all) => [...all, { key: nextKey++, region: '', first: '', additional: '', free: '' }])}>
        Add region
      </button>{' '}
      <button type="submit" className="primary" disabled={action.fetching}>
        {template ? 'Save template' : 'Create template'}
      </button>
      {action.unshown((k) => ['name', 'firstUnitFee', 'additionalUnitFee', 'freeThreshold'].includes(k) || /^regions\.\d+\./.test(k))}
    </form>
  );
}

function TemplateRow({ template }: { template: Template }) {
  const [editing, setEditing] = useState(false);
  return (
    <li className="panel">
      <h2>{template.name}</h2>
      <p>
        <Money amount={template.firstUnitFee} /> first unit, <Money amount={template.additionalUnitFee} /> each more
        {template.freeThreshold != null ? (
          <>
            , free from <Money amount={template.freeThreshold} />
          </>
        ) : null}
        . {template.regions.length} regional rule(s).
      </p>
      <div className="row-actions">
        <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
          {editing ? 'Close' : 'Edit'}
        </button>
        <ActionButton mutation={DeleteFreightTemplate} variables={{ input: { templateId: template.id } }} payload={(d) => d.deleteFreightTemplate} label="Delete" confirm="Delete this template?" refused="Not deleted" invalidates={['FreightTemplate']} />
      </div>
      {editing ? <TemplateForm template={template} onDone={() => setEditing(false)} /> : null}
    </li>
  );
}

export function FreightTemplates() {
  const [page, setPage] = usePageParam();
  const [result] = useQuery({ query: FreightTemplates_, context: useListContext('FreightTemplate'), variables: { page, pageSize: PAGE_SIZE } });
  const [adding, setAdding] = useState(false);
  return (
    <>
      <h1>Freight templates</h1>
      <QueryResult result={result} what="Loading freight templates">
        {({ freightTemplates: list }) => (
          <>
            <ul className="plain-list">
              {list.items.map((t) => (
                <TemplateRow key={t.id} template={t} />
              ))}
            </ul>
            {list.items.length === 0 ? <p className="empty">No template yet: every product ships free.</p> : null}
            <Pager page={list.page} pageSize={list.pageSize} total={list.total} onPage={setPage} />
          </>
        )}
      </QueryResult>
      {adding ? (
        <TemplateForm onDone={() => setAdding(false)} />
      ) : (
        <button type="button" className="primary" onClick={() => setAdding(true)}>
          New template
        </button>
      )}
    </>
  );
}
