# torch.distributions as policy-gradient and VAE code uses it: Categorical,
# Bernoulli, Normal and Uniform (sample, rsample, log_prob, entropy, kl):
# PyTorch's values, draws, node names, gradients and reprs.
import torch
from torch.distributions import Bernoulli, Categorical, Normal, Uniform, kl_divergence
from torch.distributions.normal import Normal as NormalAgain

torch.manual_seed(0)
logits = torch.tensor([[0.5, 1.0, -1.0], [2.0, 0.0, 0.5]], requires_grad=True)
policy = Categorical(logits=logits)
actions = policy.sample()
print(actions, policy.sample((2,)), policy)
log_prob = policy.log_prob(actions)
print(log_prob, log_prob.grad_fn.name())
entropy = policy.entropy()
print(entropy, entropy.grad_fn.name())
loss = -(log_prob * torch.tensor([1.0, -0.5])).sum() - 0.01 * entropy.sum()
loss.backward()
print(logits.grad)
probs = Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
print(probs, probs.logits, probs.probs, probs.mode, probs.sample((5,)), probs.batch_shape, probs.event_shape)

mu = torch.tensor([0.0, 1.0], requires_grad=True)
sigma = torch.tensor([1.0, 0.5], requires_grad=True)
dist = Normal(mu, sigma)
print(dist, dist.sample(), dist.sample((2,)).shape)
z = dist.rsample()
print(z, z.grad_fn.name())
lp = dist.log_prob(torch.tensor([0.5, 0.5]))
print(lp, dist.entropy(), dist.mean, dist.stddev, dist.variance)
(lp.sum() + z.sum()).backward()
print(mu.grad, sigma.grad)
kl = kl_divergence(dist, Normal(torch.zeros(2), torch.ones(2)))
print(kl, kl.grad_fn.name())
print(Normal(0.0, 1.0), Normal(0.0, 1.0).sample(), Normal(0.0, 2.0).cdf(torch.tensor(1.0)), NormalAgain is Normal)

coin = Bernoulli(probs=torch.tensor([0.3, 0.9]))
print(coin, coin.sample(), coin.sample((3,)), coin.log_prob(torch.tensor([1.0, 0.0])), coin.entropy())
print(Bernoulli(logits=torch.tensor([0.0, 2.0])).probs, kl_divergence(coin, Bernoulli(probs=torch.tensor([0.5, 0.5]))))
u = Uniform(0.0, 2.0)
print(u, u.sample((3,)), u.log_prob(torch.tensor([0.5, 1.5])), u.entropy())
print(kl_divergence(probs, Categorical(logits=torch.zeros(3))))
print(torch.rand(2))
for bad in [lambda: Normal(torch.tensor([0.0]), torch.tensor([-1.0])), lambda: Categorical(),
            lambda: Bernoulli(probs=torch.tensor([1.5])), lambda: u.log_prob(torch.tensor([0.5, 3.0])),
            lambda: Uniform(torch.tensor([0.0]), torch.tensor([2.0])).log_prob(torch.tensor([3.0]))]:
    try:
        bad()
    except ValueError as e:
        print(type(e).__name__, e)

# torch.normal of tensor means and deviations: the same draws, a zero gradient.
torch.manual_seed(3)
m = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
s = torch.tensor([1.0, 0.5, 2.0], requires_grad=True)
noisy = torch.normal(m, s)
print(noisy, noisy.grad_fn.name(), torch.normal(m, 0.3).grad_fn.name(), torch.normal(1.0, s).grad_fn.name())
noisy.sum().backward()
print(m.grad, s.grad)
print(torch.normal(torch.zeros(2, 20), 0.3)[1, -5:], torch.normal(2.0, torch.tensor([1.0, 3.0])))
