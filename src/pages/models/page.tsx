import { Shell } from '../shell';
import { type CatalogRow, MODEL_TYPES, type ModelTypeFilter, TYPE_NAMES } from './catalog';

/** `/models`: the catalog as a person reads it, filtered by a plain GET form (no script). */
export function ModelsPage(props: { rows: CatalogRow[]; total: number; query: string; type: ModelTypeFilter | null }) {
  return (
    <Shell title="Models" wide styles={['/assets/dashboard.css']}>
      <p class="muted">
        <a href="/">AI gateway</a> · <a href="/v1/models">as JSON</a>
      </p>
      <h1>Models</h1>
      <form method="get" action="/models" class="filters" role="search">
        <label for="q">Search</label>
        <input id="q" name="q" type="text" value={props.query} placeholder="claude, gpt-4o, flux…" />
        <label for="type">Type</label>
        <select id="type" name="type">
          <option value="" selected={props.type === null}>
            All types
          </option>
          {MODEL_TYPES.map((type) => (
            <option value={type} selected={props.type === type}>
              {TYPE_NAMES[type]}
            </option>
          ))}
        </select>
        <button type="submit">Filter</button>
      </form>
      <p id="count" class="muted" role="status">
        {props.rows.length === props.total ? `${props.total} models` : `${props.rows.length} of ${props.total} models`}
      </p>
      <table id="models" class="rows">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Maker</th>
            <th scope="col">Type</th>
            <th scope="col" class="num">Context</th>
            <th scope="col">Price</th>
            <th scope="col">Capabilities</th>
            <th scope="col">Providers</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr>
              <td data-label="Model">
                <code>{row.id}</code>
                <br />
                <span class="muted">{row.name}</span>
              </td>
              <td data-label="Maker">{row.maker}</td>
              <td data-label="Type">{TYPE_NAMES[row.type]}</td>
              <td data-label="Context" class="num">
                {row.context === null ? '—' : row.context.toLocaleString('en-US')}
              </td>
              <td data-label="Price">{row.price}</td>
              <td data-label="Capabilities">{row.capabilities.join(', ') || '—'}</td>
              <td data-label="Providers">
                {row.endpoints.map((endpoint, i) => (
                  <>
                    {i > 0 ? ', ' : ''}
                    {endpoint.provider} <span class={endpointClass(endpoint)}>({endpointLabel(endpoint)})</span>
                  </>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Shell>
  );
}

/** A provider's state as a person reads it: not configured, or serving and its recent status. */
function endpointLabel(endpoint: CatalogRow['endpoints'][number]): string {
  if (!endpoint.serving) return 'not configured';
  return endpoint.status === undefined || endpoint.status === 'ok' ? 'serving' : endpoint.status === 'down' ? 'down: skipped for now' : 'degraded';
}

function endpointClass(endpoint: CatalogRow['endpoints'][number]): string {
  if (!endpoint.serving) return 'muted';
  return endpoint.status === 'down' ? 'error' : endpoint.status === 'degraded' ? 'warn' : 'ok';
}
