import type { ActivityTotals, WindowTotals } from '../../../durable-objects/account/activity-totals';
import { displayUsd } from '../shell';

const count = (n: number) => n.toLocaleString('en-US');

const WINDOWS: { id: keyof ActivityTotals; label: string }[] = [
  { id: 'today', label: 'Today (UTC)' },
  { id: 'month', label: 'This month (UTC)' },
  { id: 'last30Days', label: 'Last 30 days' },
];

function Row(props: { id: string; label: string; totals: WindowTotals }) {
  const { spentMicros, succeeded, failed } = props.totals;
  return (
    <tr data-window={props.id}>
      <th scope="row">{props.label}</th>
      <td data-label="Spend" class="num">
        {displayUsd(spentMicros)}
      </td>
      <td data-label="Requests" class="num">
        {count(succeeded + failed)}
      </td>
      <td data-label="Succeeded" class="num">
        {count(succeeded)}
      </td>
      <td data-label="Failed" class="num">
        {count(failed)}
      </td>
    </tr>
  );
}

/** The overview's spend and request counts per window; failed requests charged nothing. */
export function TotalsTable(props: { totals: ActivityTotals }) {
  return (
    <table class="rows" id="totals">
      <thead>
        <tr>
          <th scope="col">Period</th>
          <th scope="col" class="num">
            Spend
          </th>
          <th scope="col" class="num">
            Requests
          </th>
          <th scope="col" class="num">
            Succeeded
          </th>
          <th scope="col" class="num">
            Failed
          </th>
        </tr>
      </thead>
      <tbody>
        {WINDOWS.map((window) => (
          <Row id={window.id} label={window.label} totals={props.totals[window.id]} />
        ))}
      </tbody>
    </table>
  );
}

/** A chat completion to paste into a shell: the key is never stored in clear, so it reads from the environment. */
export function chatCurl(base: string): string {
  return `export GATEWAY_API_KEY=<your API key>\ncurl ${base}/v1/chat/completions \\\n  -H "Authorization: Bearer $GATEWAY_API_KEY" \\\n  -H "Content-Type: application/json" \\\n  -d '{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":"Hello"}]}'`;
}

/** "Use your key": the base URL and a first request. */
export function UseYourKey(props: { base: string }) {
  return (
    <section aria-labelledby="use-key-title">
      <h2 id="use-key-title">Use your key</h2>
      <p>
        Base URL (OpenAI-compatible): <code id="base-url" class="link">{props.base}/v1</code>
      </p>
      <p>
        A chat completion with your API key (shown only once, when it was made; <a href="/dashboard/keys">make another</a> if it is lost):
      </p>
      <pre id="chat-curl">
        <code>{chatCurl(props.base)}</code>
      </pre>
    </section>
  );
}
