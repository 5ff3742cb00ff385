l f- f
end }
