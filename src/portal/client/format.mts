/** How the page shows addresses, times and chart labels. */

export function short(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

export function time(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function clock(iso: string, stepMinutes: number): string {
  const date = new Date(iso);
  return stepMinutes >= 60 ? date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }) : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
