/**
 * The page of the widget's history test (test/browser/widgetHistory.ts): `@lifi/widget` exactly as published,
 * configured through its documented config — the integrator, `sdkConfig.apiUrl` pointing at the service under test
 * (the page URL's `apiUrl` parameter: the page is served from another origin than the service) — and one wallet
 * provider for EVM chains, `providers: [InjectedWallets]`.
 *
 * Widget 4 ships no EVM wallet support of its own: its EVM wallets come from a provider component in `providers`
 * (`@lifi/widget-provider-ethereum`, on wagmi, which this project does not depend on) that fills the base package's
 * `EthereumContext` (`@lifi/widget-provider`) with the wallets found, the account and connect/disconnect. The
 * provider here fills the same context, the way that package does, from the browser's injected wallets as EIP-6963
 * discovers them (`eip6963:requestProvider` / `eip6963:announceProvider`, what wagmi's injected connectors use):
 * each wallet announced is listed in the widget's own wallet menu (connector id = its rdns, name and icon as
 * announced), connecting asks it `eth_requestAccounts` and `eth_chainId`, and its `accountsChanged` and
 * `chainChanged` events are followed. The address is checksummed as wagmi does. It has no `sdkProvider`: the page
 * reads the history, it executes nothing.
 */
import { ChainType, LiFiWidget, type WidgetConfig } from '@lifi/widget';
import { EthereumContext, type Account, type EthereumProviderContext, type WalletConnector, type WidgetProviderProps } from '@lifi/widget-provider';
import { useCallback, useEffect, useMemo, useState, type PropsWithChildren, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { getAddress } from 'viem';
import { HISTORY_INTEGRATOR } from './history';
import { API_URL_PARAMETER } from './transfer';

/** An EIP-1193 provider, as much of it as the page uses. */
interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
  on?(event: string, listener: (value: never) => void): void;
  removeListener?(event: string, listener: (value: never) => void): void;
}

/** What a wallet announces (EIP-6963). */
interface AnnouncedWallet {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: Eip1193Provider;
}

interface Connection {
  wallet: AnnouncedWallet;
  address: string;
  chainId: number;
}

const DISCONNECTED: Account = {
  chainType: ChainType.EVM,
  isConnected: false,
  isConnecting: false,
  isReconnecting: false,
  isDisconnected: true,
  status: 'disconnected',
};

function connectorOf(wallet: AnnouncedWallet): WalletConnector {
  return { id: wallet.info.rdns, uid: wallet.info.uuid, name: wallet.info.name, icon: wallet.info.icon };
}

/** The widget's EVM wallet provider: the injected wallets (EIP-6963) in the widget's EthereumContext. */
function InjectedWallets({ children, isExternalContext }: PropsWithChildren<WidgetProviderProps>): ReactNode {
  const [wallets, setWallets] = useState<AnnouncedWallet[]>([]);
  const [connection, setConnection] = useState<Connection>();

  useEffect(() => {
    const announced = (event: Event) => {
      const detail = (event as CustomEvent<AnnouncedWallet>).detail;
      if (!detail?.info?.uuid || !detail.provider) return;
      setWallets((known) => (known.some((w) => w.info.uuid === detail.info.uuid) ? known : [...known, detail]));
    };
    window.addEventListener('eip6963:announceProvider', announced);
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    return () => window.removeEventListener('eip6963:announceProvider', announced);
  }, []);

  // the connected wallet's account and chain, as it changes them
  const connectedWallet = connection?.wallet;
  useEffect(() => {
    const provider = connectedWallet?.provider;
    if (!provider) return;
    const accountsChanged = (accounts: string[]) =>
      setConnection((current) => (current && accounts.length > 0 ? { ...current, address: getAddress(accounts[0]) } : undefined));
    const chainChanged = (chainId: string) => setConnection((current) => (current ? { ...current, chainId: Number(chainId) } : current));
    provider.on?.('accountsChanged', accountsChanged);
    provider.on?.('chainChanged', chainChanged);
    return () => {
      provider.removeListener?.('accountsChanged', accountsChanged);
      provider.removeListener?.('chainChanged', chainChanged);
    };
  }, [connectedWallet]);

  const connect = useCallback(
    async (connectorIdOrName: string, onSuccess?: (address: string, chainId: number) => void) => {
      const wallet = wallets.find((w) => w.info.rdns === connectorIdOrName || w.info.name === connectorIdOrName);
      if (!wallet) throw new Error(`no injected wallet ${connectorIdOrName}`);
      const accounts = (await wallet.provider.request({ method: 'eth_requestAccounts' })) as string[];
      if (accounts.length === 0) throw new Error(`${wallet.info.name} gave no account`);
      const chainId = Number(await wallet.provider.request({ method: 'eth_chainId' }));
      const address = getAddress(accounts[0]);
      setConnection({ wallet, address, chainId });
      onSuccess?.(address, chainId);
    },
    [wallets],
  );
  const disconnect = useCallback(async () => setConnection(undefined), []);

  const value = useMemo<EthereumProviderContext>(() => {
    const account: Account = connection
      ? {
          address: connection.address,
          addresses: [connection.address],
          chainId: connection.chainId,
          chainType: ChainType.EVM,
          connector: connectorOf(connection.wallet),
          isConnected: true,
          isConnecting: false,
          isReconnecting: false,
          isDisconnected: false,
          status: 'connected',
        }
      : DISCONNECTED;
    return {
      isEnabled: true,
      isExternalContext: isExternalContext ?? false,
      isConnected: account.isConnected,
      account,
      installedWallets: wallets.map(connectorOf),
      connect,
      disconnect,
    };
  }, [connection, wallets, isExternalContext, connect, disconnect]);

  return <EthereumContext.Provider value={value}>{children}</EthereumContext.Provider>;
}

const apiUrl = new URLSearchParams(window.location.search).get(API_URL_PARAMETER);
const container = document.getElementById('root');
if (!apiUrl || !container) throw new Error(`the page needs ?${API_URL_PARAMETER}=<service origin>/v1 and a #root element`);

const config: WidgetConfig = {
  integrator: HISTORY_INTEGRATOR,
  sdkConfig: { apiUrl },
  providers: [InjectedWallets],
};

createRoot(container).render(<LiFiWidget integrator={HISTORY_INTEGRATOR} config={config} />);
