% SPDX-License-Identifier: Apache-2.0
function args = radon(nout, in)
% [R, xp] = radon(I), radon(I, theta).
args = openipt.syntax.positional(in, {'I', 'theta'}, nout, 2);
end
