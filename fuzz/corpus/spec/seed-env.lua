-- framework "none": each file's globals are its own; levels is read only.
level = nil
string.rep = nil
_G.framework = nil
print(pcall(rawset, levels, "biswas.SER", 1))
print(pcall(function() levels.x = 1 end))
print(pcall(setmetatable, levels, nil), pcall(setmetatable, _G, nil))
