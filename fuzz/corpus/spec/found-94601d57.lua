library "ba7777771111111111111_2band111111111!177d"
level "X" { fwa11work = "bis:",
  cxiom }
