% SPDX-License-Identifier: Apache-2.0
function args = imdilate(nout, in)
% imdilate(A, SE), imdilate(A, SE, 'same'): see morphology.m.
args = openipt.syntax.morphology(nout, in);
end
