% SPDX-License-Identifier: Apache-2.0
function args = mat2gray(nout, in)
% mat2gray(A), mat2gray(A, [amin amax]).
args = openipt.syntax.positional(in, {'A', 'limits'}, nout, 1);
end
