-  fitfäameframework "fwwhile twwwww)
fa