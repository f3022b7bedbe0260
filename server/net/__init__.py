"""The network: the websocket wire, arrival stamps, peers and their connections, the legacy TCP port."""
