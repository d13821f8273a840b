/**
 * The page of the widget test (test/browser/widget.ts): `@lifi/widget` exactly as published, configured
 * only through its documented config — the integrator, `sdkConfig.apiUrl` pointing at the service under
 * test, and the form defaults of one transfer. The service's API base comes from the page URL's
 * `apiUrl` parameter, because the page is served from another origin than the service.
 */
import { LiFiWidget, type WidgetConfig } from '@lifi/widget';
import { createRoot } from 'react-dom/client';
import { API_URL_PARAMETER, DEFAULT_TRANSFER, INTEGRATOR } from './transfer';

const apiUrl = new URLSearchParams(window.location.search).get(API_URL_PARAMETER);
const container = document.getElementById('root');
if (!apiUrl || !container) throw new Error(`the page needs ?${API_URL_PARAMETER}=<service origin>/v1 and a #root element`);

const config: WidgetConfig = {
  integrator: INTEGRATOR,
  sdkConfig: { apiUrl },
  fromChain: DEFAULT_TRANSFER.fromChain,
  fromToken: DEFAULT_TRANSFER.fromToken,
  toChain: DEFAULT_TRANSFER.toChain,
  toToken: DEFAULT_TRANSFER.toToken,
  fromAmount: DEFAULT_TRANSFER.fromAmount,
};

createRoot(container).render(<LiFiWidget integrator={INTEGRATOR} config={config} />);
